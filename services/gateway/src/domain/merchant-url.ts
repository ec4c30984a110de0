import { checkMerchantUrl } from '@hs/contracts';
import { policyViolation } from '@hs/service-kit';

/**
 * The merchant domain of a purchase-request URL under the one merchant-URL rule shared with
 * commerce offers (`checkMerchantUrl`); a refusal is 400 POLICY_VIOLATION.
 */
export function merchantDomainOf(raw: string, allowPrivateHosts: readonly string[] = []): string {
  const check = checkMerchantUrl(raw, { allowPrivateHosts });
  if (!check.ok) throw policyViolation(check.reason);
  return check.domain;
}
