import {
  type BudgetView,
  formatMoney,
  type PurchaseRequest,
  roundToCurrency,
  type SpendingPolicy,
} from '@hs/contracts';
import { conflict } from '@hs/service-kit';
import { requestTotal } from './purchase-request-rules.ts';

/**
 * Household spending policy: a PARENT_GUARDIAN sets, per member, a per-request cap and a
 * monthly cap in one currency. Approval reserves the request's total in the requester's
 * ledger for the month of approval (UTC); rejecting or cancelling releases it. The ledger is
 * one document changed by atomic updates, so two approvals racing for the last of a budget
 * cannot both succeed. Totals are price × quantity; no currency conversion is ever made: a
 * member with limits can only be approved for requests in the policy's currency.
 */
export type SpendingLedger = {
  householdId: string;
  memberId: string;
  month: string;
  currency: string;
  /** requestId → reserved total */
  amounts: Record<string, number>;
  /**
   * requestId → when an approval reserved it, until the approval is seen on the request
   * (settled). An approval whose reservation landed but whose request never moved (its store call
   * timed out, a commit still on its way) leaves an entry here: after RESERVATION_FENCE_MS nothing
   * can move the request any more, and an entry whose request is not approved by then is given
   * back (flows/stale-reservations.ts). Entries written before this field existed have none.
   */
  pending?: Record<string, string>;
};

/**
 * How long an approval's reservation is held before it may be judged stale: beyond Firestore's
 * longest transaction lifetime (270 s), so an approval's commit that was still on its way when
 * its caller gave up has landed or failed for good by then.
 */
export const RESERVATION_FENCE_MS = 5 * 60_000;

export const monthOf = (iso: string) => iso.slice(0, 7);

/** Months an approval of a request could have reserved in: from its creation to `now`, at most 12. */
export function monthsSince(createdAt: string, now: string): string[] {
  const months: string[] = [];
  const at = new Date(`${monthOf(createdAt)}-01T00:00:00Z`);
  const last = monthOf(now);
  while (months.length < 12) {
    const month = at.toISOString().slice(0, 7);
    months.push(month);
    if (month >= last) break;
    at.setUTCMonth(at.getUTCMonth() + 1);
  }
  return months;
}
export const ledgerKey = (householdId: string, memberId: string, month: string, currency: string) =>
  `${householdId}:${memberId}:${month}:${currency}`;

const sum = (ledger: SpendingLedger | null, currency: string) =>
  roundToCurrency(
    Object.values(ledger?.amounts ?? {}).reduce((a, b) => a + b, 0),
    currency,
  );

/** A limit as stored: in the currency's smallest unit (null: no cap). */
export const roundedLimit = (limit: number | null, currency: string): number | null =>
  limit === null ? null : roundToCurrency(limit, currency);

export function emptyPolicy(householdId: string, memberId: string): SpendingPolicy {
  return {
    householdId,
    memberId,
    perRequestLimit: null,
    monthlyLimit: null,
    currency: null,
    updatedAt: null,
    updatedBy: null,
  };
}

const hasLimits = (p: SpendingPolicy | null): p is SpendingPolicy & { currency: string } =>
  !!p?.currency && (p.perRequestLimit !== null || p.monthlyLimit !== null);

/** Checks that need no ledger: currency and the per-request cap. */
export function checkPolicyForRequest(policy: SpendingPolicy | null, request: PurchaseRequest): void {
  if (!hasLimits(policy)) return;
  const total = requestTotal(request);
  if (policy.currency !== request.currency)
    throw conflict(
      `The requester's spending policy is in ${policy.currency}; a request in ${request.currency} cannot be approved against it`,
    );
  if (policy.perRequestLimit !== null && total > policy.perRequestLimit)
    throw conflict(
      `Request total ${formatMoney(total, request.currency)} exceeds the requester's per-request limit of ${formatMoney(policy.perRequestLimit, policy.currency)}`,
    );
}

/** The ledger with this request's total reserved; 409 when it would go over the monthly cap. */
export function reserveInLedger(
  ledger: SpendingLedger | null,
  base: Omit<SpendingLedger, 'amounts'>,
  policy: SpendingPolicy | null,
  request: PurchaseRequest,
  now: string,
): SpendingLedger {
  const current = ledger ?? { ...base, amounts: {} };
  if (request.requestId in current.amounts) {
    // Held by an earlier approval that never reached the request: this approval holds it anew,
    // so the entry is not judged stale while this one is under way.
    const held = current.pending?.[request.requestId];
    return held === undefined
      ? current
      : { ...current, pending: { ...current.pending, [request.requestId]: now } };
  }
  const total = requestTotal(request);
  const spent = sum(current, request.currency);
  if (hasLimits(policy) && policy.monthlyLimit !== null && spent + total > policy.monthlyLimit + 1e-9) {
    const remaining = Math.max(0, policy.monthlyLimit - spent);
    throw conflict(
      `Request total ${formatMoney(total, request.currency)} exceeds the requester's remaining monthly budget of ${formatMoney(remaining, policy.currency)} (limit ${formatMoney(policy.monthlyLimit, policy.currency)}, spent ${formatMoney(spent, policy.currency)})`,
    );
  }
  return {
    ...current,
    amounts: { ...current.amounts, [request.requestId]: total },
    pending: { ...current.pending, [request.requestId]: now },
  };
}

/** The ledger with the request's reservation settled (its approval is on the request); null: nothing to do. */
export function settleInLedger(ledger: SpendingLedger | null, requestId: string): SpendingLedger | null {
  if (!ledger?.pending || !(requestId in ledger.pending)) return null;
  const { [requestId]: _settled, ...pending } = ledger.pending;
  return { ...ledger, pending };
}

/** Reservations held longer than the fence by an approval not seen on its request: requestId → reservedAt. */
export function staleReservations(ledger: SpendingLedger | null, now: string): Map<string, string> {
  const cutoff = Date.parse(now) - RESERVATION_FENCE_MS;
  const stale = new Map<string, string>();
  for (const [requestId, at] of Object.entries(ledger?.pending ?? {}))
    if (Date.parse(at) <= cutoff) stale.set(requestId, at);
  return stale;
}

/**
 * The ledger after judging stale reservations (`seen`: requestId → reservedAt as read): those of
 * requests now spending are settled, the others given back. An entry held again since it was
 * read (another approval of the same request) is left alone. Null: nothing changes.
 */
export function judgeStale(
  ledger: SpendingLedger | null,
  seen: ReadonlyMap<string, string>,
  spending: ReadonlySet<string>,
): SpendingLedger | null {
  if (!ledger?.pending) return null;
  const amounts = { ...ledger.amounts };
  const pending = { ...ledger.pending };
  let changed = false;
  for (const [requestId, at] of seen) {
    if (pending[requestId] !== at) continue;
    delete pending[requestId];
    if (!spending.has(requestId)) delete amounts[requestId];
    changed = true;
  }
  return changed ? { ...ledger, amounts, pending } : null;
}

/** The ledger as the member's spending: without reservations whose request is not (yet) spending. */
export function countedLedger(
  ledger: SpendingLedger | null,
  spending: ReadonlySet<string>,
): SpendingLedger | null {
  if (!ledger?.pending) return ledger;
  const amounts = { ...ledger.amounts };
  for (const requestId of Object.keys(ledger.pending))
    if (!spending.has(requestId)) delete amounts[requestId];
  return { ...ledger, amounts };
}

export function releaseFromLedger(ledger: SpendingLedger | null, requestId: string): SpendingLedger | null {
  if (!ledger || !(requestId in ledger.amounts)) return null;
  const { [requestId]: _released, ...amounts } = ledger.amounts;
  const { [requestId]: _held, ...pending } = ledger.pending ?? {};
  return { ...ledger, amounts, ...(ledger.pending ? { pending } : {}) };
}

/** The roles table: a guardian reads any request's budget, everyone else only their own. */
export const mayReadBudget = (reader: { memberId: string; role: string }, requesterId: string): boolean =>
  reader.role === 'PARENT_GUARDIAN' || reader.memberId === requesterId;

export function budgetView(
  policy: SpendingPolicy | null,
  ledger: SpendingLedger | null,
  currency: string,
): BudgetView {
  const shown = policy?.currency ?? currency;
  const spent = sum(ledger, shown);
  const monthlyLimit = policy?.monthlyLimit ?? null;
  return {
    currency: shown,
    perRequestLimit: policy?.perRequestLimit ?? null,
    monthlyLimit,
    spentThisMonth: spent,
    remaining: monthlyLimit === null ? null : Math.max(0, roundToCurrency(monthlyLimit - spent, shown)),
  };
}
