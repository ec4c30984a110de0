import type { AuditInput } from '@hs/audit-client';
import {
  type CreatePurchaseRequest,
  MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS,
  type Member,
  type PurchaseRequest,
  type Role,
  roundToCurrency,
} from '@hs/contracts';
import { forbidden } from '@hs/service-kit';
import { checkedMerchantUrl } from './merchant-url.ts';

/**
 * A request as stored: the contract shape plus bookkeeping that clients never see.
 * - `intentActorId`: who created the current purchase intent.
 * - `dispatchPending`: the cart-prep job of the current intent may not have reached cart-prep
 *   yet (set with the move to CART_PREP, cleared once cart-prep accepted it); the dispatch
 *   recovery sweep re-sends such jobs after a crash.
 * - `budgetKey`: the monthly spending ledger the approved amount was reserved in.
 * - `auditOwed` / `auditPending`: gate entries written with the change they record and not yet
 *   handed to the audit outbox (flows/owed-audit.ts); absent on requests stored before them.
 */
export type StoredPurchaseRequest = PurchaseRequest & {
  intentActorId: string | null;
  dispatchPending: boolean;
  budgetKey: string | null;
  auditOwed?: OwedAudit[];
  auditPending?: boolean;
};

/** A gate's audit entry owed by the request: its id is chosen up front so it is recorded once. */
export type OwedAudit = { eventId: string; entry: AuditInput; httpRequestId: string };

const ADULTS: readonly Role[] = ['ADULT', 'PARENT_GUARDIAN'];
const GUARDIAN: readonly Role[] = ['PARENT_GUARDIAN'];

/** Who may pass each gate (decisions.md; spec part 5 item 4). */
export const ROLE_RULES = {
  create: { roles: ADULTS, message: 'A CHILD member cannot create purchase requests' },
  approve: { roles: GUARDIAN, message: 'Only a PARENT_GUARDIAN can approve purchase requests' },
  reject: { roles: GUARDIAN, message: 'Only a PARENT_GUARDIAN can reject purchase requests' },
  intent: { roles: ADULTS, message: 'A CHILD member cannot start a purchase' },
  confirm: { roles: ADULTS, message: 'A CHILD member cannot confirm a checkout' },
  policy: { roles: GUARDIAN, message: 'Only a PARENT_GUARDIAN can set spending policies' },
} as const;

export function requireGate(member: Member, gate: keyof typeof ROLE_RULES): void {
  const rule = ROLE_RULES[gate];
  if (!rule.roles.includes(member.role)) throw forbidden(rule.message);
}

/** The requester or a PARENT_GUARDIAN may cancel. */
export function requireCanCancel(member: Member, request: PurchaseRequest): void {
  if (member.memberId !== request.requesterId && member.role !== 'PARENT_GUARDIAN')
    throw forbidden('Only the requester or a PARENT_GUARDIAN can cancel a purchase request');
}

/** Validates the merchant URL (400 POLICY_VIOLATION) before anything is stored, and keeps its canonical spelling. */
export function newPurchaseRequest(
  ids: { requestId: string; householdId: string; requesterId: string },
  input: CreatePurchaseRequest,
  now: string,
  allowPrivateHosts: readonly string[] = [],
): StoredPurchaseRequest {
  const merchant = checkedMerchantUrl(input.url, allowPrivateHosts);
  return {
    ...ids,
    title: input.title,
    url: merchant.url,
    merchantDomain: merchant.domain,
    // The schema let only binary noise past the currency's decimals (19.990000000000002).
    price: roundToCurrency(input.price, input.currency),
    currency: input.currency,
    offerId: input.offerId ?? null,
    size: input.size ?? null,
    quantity: input.quantity,
    note: input.note ?? null,
    status: 'PENDING_APPROVAL',
    approvedBy: null,
    approvedAt: null,
    intentId: null,
    cartprepJobId: null,
    cart: null,
    lastFailure: null,
    createdAt: now,
    updatedAt: now,
    intentActorId: null,
    dispatchPending: false,
    budgetKey: null,
  };
}

/** The total the request would spend: unit price times quantity, in the currency's smallest unit. */
export const requestTotal = (r: Pick<PurchaseRequest, 'price' | 'quantity' | 'currency'>) =>
  roundToCurrency(r.price * r.quantity, r.currency);

export function publicRequest(r: StoredPurchaseRequest): PurchaseRequest {
  const {
    intentActorId: _a,
    dispatchPending: _d,
    budgetKey: _b,
    auditOwed: _o,
    auditPending: _p,
    ...request
  } = r;
  return request;
}

/**
 * The household with the request listed in `purchaseRequests` (unchanged when already there).
 * The list keeps only the most recent MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS, oldest first: every
 * access check reads this document, so it must not grow with the household's history (GET
 * /requests pages through all of it).
 */
export function listOnHousehold<H extends { purchaseRequests: string[]; updatedAt: string }>(
  h: H,
  requestId: string,
  now: string,
): H {
  if (h.purchaseRequests.includes(requestId)) return h;
  const purchaseRequests = [...h.purchaseRequests, requestId].slice(-MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS);
  return { ...h, purchaseRequests, updatedAt: now };
}
