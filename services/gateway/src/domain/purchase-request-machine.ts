import type { PurchaseRequest, PurchaseRequestStatus } from '@hs/contracts';
import { conflict } from '@hs/service-kit';

/**
 * The purchase-request lifecycle (decisions.md "Purchase requests (gateway)") in one table:
 *
 *   PENDING_APPROVAL --approve--> APPROVED --startCartPrep--> CART_PREP --cartReady--> CART_READY --confirmCheckout--> COMPLETED
 *                                    ^                            |
 *                                    +---------cartFailed---------+   (lastFailure set; a new intent may retry)
 *   reject: PENDING_APPROVAL | APPROVED -> REJECTED
 *   cancel: PENDING_APPROVAL | APPROVED | CART_PREP | CART_READY -> CANCELLED
 *
 * Every other (event, state) pair is refused with 409 CONFLICT. COMPLETED, REJECTED and
 * CANCELLED are final. A cart-prep callback that arrives after a cancel is refused (409), which
 * the cart-prep service treats as permanent.
 */
export type PurchaseEvent =
  | 'approve'
  | 'reject'
  | 'cancel'
  | 'startCartPrep'
  | 'cartReady'
  | 'cartFailed'
  | 'confirmCheckout';

type Transition = { from: readonly PurchaseRequestStatus[]; to: PurchaseRequestStatus; verb: string };

export const TRANSITIONS: Readonly<Record<PurchaseEvent, Transition>> = {
  approve: { from: ['PENDING_APPROVAL'], to: 'APPROVED', verb: 'approve' },
  reject: { from: ['PENDING_APPROVAL', 'APPROVED'], to: 'REJECTED', verb: 'reject' },
  cancel: {
    from: ['PENDING_APPROVAL', 'APPROVED', 'CART_PREP', 'CART_READY'],
    to: 'CANCELLED',
    verb: 'cancel',
  },
  startCartPrep: { from: ['APPROVED'], to: 'CART_PREP', verb: 'start cart preparation for' },
  cartReady: { from: ['CART_PREP'], to: 'CART_READY', verb: 'mark cart ready for' },
  cartFailed: { from: ['CART_PREP'], to: 'APPROVED', verb: 'mark cart preparation failed for' },
  confirmCheckout: { from: ['CART_READY'], to: 'COMPLETED', verb: 'confirm checkout of' },
};

export const FINAL_STATES: readonly PurchaseRequestStatus[] = ['COMPLETED', 'REJECTED', 'CANCELLED'];
/** States whose amount counts against the requester's monthly budget. */
export const SPENDING_STATES: readonly PurchaseRequestStatus[] = [
  'APPROVED',
  'CART_PREP',
  'CART_READY',
  'COMPLETED',
];

export const isFinal = (status: PurchaseRequestStatus) => FINAL_STATES.includes(status);

/** The message of a refused transition: specific where the decisions file names the case. */
export function refusalMessage(event: PurchaseEvent, status: PurchaseRequestStatus): string {
  if (isFinal(status) && event !== 'cartReady' && event !== 'cartFailed')
    return `Purchase request is already finalized (${status})`;
  switch (event) {
    case 'approve':
      return `Purchase request is already approved (${status})`;
    case 'startCartPrep':
      return `Purchase request must be APPROVED to create a purchase intent (current state: ${status})`;
    case 'cartReady':
    case 'cartFailed':
      return `Purchase request is not in cart preparation (current state: ${status})`;
    case 'confirmCheckout':
      return `Purchase request is not CART_READY (current state: ${status})`;
    default:
      return `Cannot ${TRANSITIONS[event].verb} a purchase request in state ${status}`;
  }
}

export function canApply(event: PurchaseEvent, status: PurchaseRequestStatus): boolean {
  return TRANSITIONS[event].from.includes(status);
}

/** Throws 409 CONFLICT unless the event is allowed in the request's state. */
export function assertCanApply(event: PurchaseEvent, status: PurchaseRequestStatus): void {
  if (!canApply(event, status)) throw conflict(refusalMessage(event, status));
}

/** The request after the event: pure, so it can run inside an atomic store update. */
export function applyEvent<R extends PurchaseRequest>(
  request: R,
  event: PurchaseEvent,
  patch: Partial<R>,
  now: string,
): R {
  assertCanApply(event, request.status);
  return { ...request, ...patch, status: TRANSITIONS[event].to, updatedAt: now };
}
