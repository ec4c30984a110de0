/**
 * The caller's email as peers receive it in X-User-Email. A header value can only carry visible
 * ASCII and spaces: an internationalised address (RFC 6531, which an OIDC provider may return,
 * e.g. `李@例子.cn`) or one holding control characters made the HTTP client refuse the whole
 * request, so every forwarded call of that user failed with 502. Such an email is not sent
 * (peers see none; no peer decides anything by email) instead.
 */
const HEADER_SAFE = /^[\x20-\x7e]*$/;

export function forwardableEmail(email: string): string {
  return HEADER_SAFE.test(email) ? email : '';
}
