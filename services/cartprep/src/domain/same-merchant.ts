/** Same merchant: the host itself, one of its subdomains, or its parent (www.shop.com ↔ shop.com). */
export function sameMerchant(host: string, original: string): boolean {
  const a = host.toLowerCase();
  const b = original.toLowerCase();
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}
