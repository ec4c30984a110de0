import {
  type Cart,
  type CartprepFailureCode,
  type CheckCartOutcome,
  formatMoney,
  type PurchaseFailure,
} from '@hs/contracts';

/** What a purchase request's status (and its last failure) means for its cart preparation. */
export function cartOutcome(
  status: string,
  lastFailure: PurchaseFailure | null | undefined,
): CheckCartOutcome {
  switch (status) {
    case 'PENDING_APPROVAL':
      return 'APPROVAL_NEEDED';
    // A failed cart-prep job moves the request back to APPROVED with the failure attached.
    case 'APPROVED':
      return lastFailure ? 'FAILED' : 'NOT_STARTED';
    case 'CART_PREP':
      return 'PREPARING';
    case 'CART_READY':
      return 'READY';
    case 'COMPLETED':
      return 'COMPLETED';
    default:
      return 'CLOSED';
  }
}

/** Cart-prep's failure codes (spec part 7) in words a shopper understands; every code has its words. */
const FAILURE_WORDS: Record<string, string> = {
  BLOCKED_BOT_DETECTED: 'the shop blocked our automated browser',
  SIZE_UNAVAILABLE: 'the size is out of stock',
  POPUP_OVERLAY_UNRESOLVED: "a pop-up on the shop's page could not be closed",
  LOGIN_REQUIRED: 'the shop requires signing in',
  UNKNOWN_DOM: "the shop's page was not recognised",
  TIMEOUT: "the shop's page took too long to respond",
  DOMAIN_NOT_ALLOWED: 'the shop is not on the list of allowed merchants',
  SAFETY_VIOLATION: 'the next step would have broken the safety rules',
  INTERNAL_ERROR: 'something went wrong inside cart preparation',
} satisfies Record<CartprepFailureCode, string>;

export const failureInWords = (code: string) => FAILURE_WORDS[code] ?? `it failed (${code})`;

/** How the agent names a request to the user: its title when it has one. */
export const requestName = (r: { requestId: string; title?: string | undefined }) =>
  r.title ? `"${r.title}" (${r.requestId})` : r.requestId;

export type CartStatusFacts = {
  requestId: string;
  title?: string | undefined;
  status: string;
  outcome: CheckCartOutcome;
  cart?: Cart | undefined;
  failure?: PurchaseFailure | undefined;
  cartprepJobId?: string | null | undefined;
};

/** One or two short sentences on where the cart stands; never a confirmation token. */
export function describeCartStatus(f: CartStatusFacts): string {
  const name = requestName(f);
  switch (f.outcome) {
    case 'READY': {
      const c = f.cart;
      if (!c)
        return `The cart for ${name} is ready. Confirm the checkout in the app: ask for a confirmation token there.`;
      const count = c.items.reduce((n, i) => n + i.quantity, 0);
      return `The cart for ${name} is ready: ${count} item${count === 1 ? '' : 's'}, ${formatMoney(c.subtotal, c.currency)} at ${c.merchantDomain}. Confirm the checkout in the app: ask for a confirmation token there.`;
    }
    case 'PREPARING':
      return `The cart for ${name} is still being prepared${f.cartprepJobId ? ` (job ${f.cartprepJobId})` : ''}.`;
    case 'FAILED':
      return `Cart preparation for ${name} failed${f.failure ? `: ${failureInWords(f.failure.errorCode)}` : ''}. The approval still stands, so it can be tried again.`;
    case 'NOT_STARTED':
      return `Request ${name} is approved; cart preparation has not started.`;
    case 'APPROVAL_NEEDED':
      return `Request ${name} is waiting for a parent's approval.`;
    case 'COMPLETED':
      return `The purchase of ${name} is completed.`;
    case 'CLOSED':
      return `Request ${name} is ${f.status}; its cart will not be prepared.`;
  }
}
