import { policyViolation } from '@hs/service-kit';

/**
 * The merchant domain of a job URL (http(s) only), checked against the allowlist when one is
 * enforced: a listed domain allows itself and its subdomains. Refusals are 400 POLICY_VIOLATION.
 */
export function checkJobUrl(raw: string, allowlist: readonly string[] | null): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw policyViolation('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw policyViolation('url must use http or https');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (allowlist && !allowlist.some((d) => host === d || host.endsWith(`.${d}`)))
    throw policyViolation(`Domain ${host} is not in CARTPREP_ALLOWED_DOMAINS`);
  return host;
}
