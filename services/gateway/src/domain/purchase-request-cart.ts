import { type Cart, cartMismatch, formatMoney, type PurchaseRequest, roundToCurrency } from '@hs/contracts';
import { requestTotal } from './purchase-request-rules.ts';

const sameOrSubdomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * Why a prepared cart may not be put in front of the user for checkout, or null when it matches
 * what the parent approved. The approval covered one amount, currency, merchant, size and
 * quantity: a cart that costs more (by its subtotal or by its lines), is in another currency,
 * holds another size or quantity, comes from another merchant, or sends the user to a checkout
 * page off that merchant (or not over https) is refused, never silently accepted. The
 * request then goes back to APPROVED with lastFailure SAFETY_VIOLATION (the cartFailed
 * transition); a cheaper cart is fine.
 */
export function cartRefusal(
  request: Pick<PurchaseRequest, 'price' | 'quantity' | 'currency' | 'merchantDomain' | 'size'>,
  cart: Cart,
  allowPrivateHosts: readonly string[] = [],
): string | null {
  const approved = requestTotal(request);
  if (cart.currency !== request.currency)
    return `Cart is in ${cart.currency}, but the approved request is in ${request.currency}`;
  // Both in the currency's smallest unit, as cart-prep rounds its subtotals.
  if (roundToCurrency(cart.subtotal, cart.currency) > approved)
    return `Cart subtotal ${formatMoney(cart.subtotal, cart.currency)} exceeds the approved total ${formatMoney(approved, request.currency)}`;
  // The subtotal is one figure read off a page; the lines are what will be charged.
  const lines = roundToCurrency(
    cart.items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0),
    cart.currency,
  );
  if (lines > approved)
    return `Cart lines add up to ${formatMoney(lines, cart.currency)}, more than the approved total ${formatMoney(approved, request.currency)}`;
  const mismatch = cartMismatch(cart, { size: request.size ?? null, quantity: request.quantity });
  if (mismatch) return `Cart does not hold what was approved: ${mismatch}`;
  const merchant = cart.merchantDomain.toLowerCase().replace(/\.$/, '');
  if (merchant !== request.merchantDomain)
    return `Cart is from ${merchant}, but the approved request is from ${request.merchantDomain}`;
  const checkout = new URL(cart.checkoutUrl);
  // A user name in front of the host (`https://evil.example@shop.com/`) is how a link is made
  // to read as another site; no merchant's checkout needs one.
  if (checkout.username || checkout.password) return 'Checkout URL must not contain credentials';
  const checkoutHost = checkout.hostname.toLowerCase().replace(/\.$/, '');
  // A local demo shop (ALLOW_PRIVATE_MERCHANT_HOSTS, dev/test only) has no https.
  const localShop = allowPrivateHosts.includes(
    `${checkoutHost}:${checkout.port || (checkout.protocol === 'https:' ? '443' : '80')}`,
  );
  if (
    (checkout.protocol !== 'https:' && !localShop) ||
    !sameOrSubdomain(checkoutHost, request.merchantDomain)
  )
    return `Checkout URL must be https on ${request.merchantDomain} (got ${checkout.protocol}//${checkoutHost})`;
  // The merchant-URL rule: shops are reached on their scheme's default port only.
  if (checkout.port && !localShop)
    return `Checkout URL must use the default https port (got ${checkout.port})`;
  return null;
}

/**
 * The cart as kept on the request: its checkout URL in canonical (WHATWG) spelling, the one the
 * check above judged, so an app parsing it otherwise (`\` read as part of a user name by
 * Android's Uri) opens the same host.
 */
export const canonicalCart = (cart: Cart): Cart => ({ ...cart, checkoutUrl: new URL(cart.checkoutUrl).href });
