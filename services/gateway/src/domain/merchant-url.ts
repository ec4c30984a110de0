import { checkMerchantUrl } from '@hs/contracts';
import { policyViolation } from '@hs/service-kit';

/**
 * A purchase-request URL under the one merchant-URL rule shared with commerce offers
 * (`checkMerchantUrl`): its canonical (WHATWG) spelling and its merchant domain; a refusal is
 * 400 POLICY_VIOLATION. The canonical spelling is what gets stored and shown: a raw URL that
 * other parsers read differently (`https://shop.com\@evil.com/` is shop.com here but evil.com
 * to Android's Uri) would let the link a guardian opens name another host than the approval.
 */
export function checkedMerchantUrl(
  raw: string,
  allowPrivateHosts: readonly string[] = [],
): { url: string; domain: string } {
  const check = checkMerchantUrl(raw, { allowPrivateHosts });
  if (!check.ok) throw policyViolation(check.reason);
  return { url: check.url, domain: check.domain };
}
