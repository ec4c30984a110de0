import type { Cart, CartItem } from './cartprep.ts';

const norm = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();

/**
 * Whether a cart holds what was asked: a line in the requested size (when one was asked) with
 * the requested quantity. Null when it does, else why not. Cart-prep checks the cart it read
 * back from the merchant; the gateway checks it again before a member sees it for checkout.
 */
export function cartMismatch(cart: Cart, wanted: { size: string | null; quantity: number }): string | null {
  const sized = (i: CartItem) => !wanted.size || norm(i.size) === norm(wanted.size);
  const lines = cart.items.filter(sized);
  if (lines.length === 0)
    return `the cart holds no line in size ${wanted.size} (it reads ${cart.items.map((i) => i.size ?? 'no size').join(', ')})`;
  const count = lines.reduce((n, i) => n + i.quantity, 0);
  if (count !== wanted.quantity)
    return `the cart holds ${count} of the item, the request is for ${wanted.quantity}`;
  return null;
}
