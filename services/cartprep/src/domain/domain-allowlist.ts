import { checkMerchantUrl } from '@hs/contracts';
import { policyViolation } from '@hs/service-kit';

/**
 * The merchant domain of a job URL under the shared merchant-URL rule, checked against
 * CARTPREP_ALLOWED_DOMAINS when the allowlist is enforced (a listed domain allows itself and
 * its subdomains). Refusals are 400 POLICY_VIOLATION.
 */
export function checkJobUrl(raw: string, allowlist: readonly string[] | null): string {
  const check = checkMerchantUrl(raw, { allowedDomains: allowlist });
  if (!check.ok) throw policyViolation(check.reason);
  return check.domain;
}
