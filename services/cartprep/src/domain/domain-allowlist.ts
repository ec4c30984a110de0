import { checkMerchantUrl } from '@hs/contracts';
import { policyViolation } from '@hs/service-kit';

/**
 * The merchant domain of a job URL under the shared merchant-URL rule, checked against
 * CARTPREP_ALLOWED_DOMAINS when the allowlist is enforced (a listed domain allows itself and
 * its subdomains). ALLOW_PRIVATE_MERCHANT_HOSTS entries (dev/test) pass as they are.
 * Refusals are 400 POLICY_VIOLATION.
 */
export function checkJobUrl(
  raw: string,
  allowlist: readonly string[] | null,
  allowPrivateHosts: readonly string[] = [],
): string {
  const check = checkMerchantUrl(raw, { allowedDomains: allowlist, allowPrivateHosts });
  if (!check.ok) throw policyViolation(check.reason);
  return check.domain;
}
