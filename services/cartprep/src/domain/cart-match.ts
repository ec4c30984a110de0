import type { Cart, CartItem } from '@hs/contracts';

const norm = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();

/**
 * Whether the cart read back from the merchant holds what was asked: a line in the requested
 * size (when one was asked) with the requested quantity. Null when it does, else why not.
 */
export function cartMismatch(cart: Cart, wanted: { size: string | null; quantity: number }): string | null {
  const sized = (i: CartItem) => !wanted.size || norm(i.size) === norm(wanted.size);
  const lines = cart.items.filter(sized);
  if (lines.length === 0)
    return `the cart holds no line in size ${wanted.size} (it reads ${cart.items.map((i) => i.size ?? 'no size').join(', ')})`;
  const count = lines.reduce((n, i) => n + i.quantity, 0);
  if (count !== wanted.quantity) return `the cart holds ${count} of the item, ${wanted.quantity} were asked`;
  return null;
}

/** Same merchant: the host itself, one of its subdomains, or its parent (www.shop.com ↔ shop.com). */
export function sameMerchant(host: string, original: string): boolean {
  const a = host.toLowerCase();
  const b = original.toLowerCase();
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}
