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
};

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
): SpendingLedger {
  const current = ledger ?? { ...base, amounts: {} };
  if (request.requestId in current.amounts) return current;
  const total = requestTotal(request);
  const spent = sum(current, request.currency);
  if (hasLimits(policy) && policy.monthlyLimit !== null && spent + total > policy.monthlyLimit + 1e-9) {
    const remaining = Math.max(0, policy.monthlyLimit - spent);
    throw conflict(
      `Request total ${formatMoney(total, request.currency)} exceeds the requester's remaining monthly budget of ${formatMoney(remaining, policy.currency)} (limit ${formatMoney(policy.monthlyLimit, policy.currency)}, spent ${formatMoney(spent, policy.currency)})`,
    );
  }
  return { ...current, amounts: { ...current.amounts, [request.requestId]: total } };
}

export function releaseFromLedger(ledger: SpendingLedger | null, requestId: string): SpendingLedger | null {
  if (!ledger || !(requestId in ledger.amounts)) return null;
  const { [requestId]: _released, ...amounts } = ledger.amounts;
  return { ...ledger, amounts };
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
