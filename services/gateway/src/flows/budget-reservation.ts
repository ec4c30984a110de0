import type { PurchaseRequest, SpendingPolicy } from '@hs/contracts';
import { AppError } from '@hs/service-kit';
import type { Buyflow } from '../adapters/buyflow.ts';
import {
  countedLedger,
  ledgerKey,
  monthOf,
  type SpendingLedger,
  staleReservations,
} from '../domain/spending-policy.ts';

/**
 * Reserves the request's total in the requester's ledger for the month of `now`; returns the
 * ledger key. Over the monthly cap (409), the month's stale reservations are judged first and,
 * when that gave any back, the reservation is tried once more.
 */
export async function reserveBudget(
  buyflow: Pick<Buyflow, 'requests' | 'policies'>,
  request: PurchaseRequest,
  policy: SpendingPolicy | null,
  now: string,
): Promise<string> {
  const month = monthOf(now);
  try {
    return await buyflow.policies.reserve(request, month, policy, now);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
    const ledger = {
      householdId: request.householdId,
      memberId: request.requesterId,
      month,
      currency: request.currency,
    };
    if (!(await releaseStaleReservations(buyflow, ledger, now))) throw err;
    return buyflow.policies.reserve(request, month, policy, now);
  }
}

/**
 * Gives back the month's reservations whose approval never reached its request (see
 * `SpendingLedger.pending`), or reached it with another month's reservation, and settles those
 * whose approval did with this one. Run when an approval would go
 * over the monthly cap: a phantom must not block the member's budget. True when any amount was
 * given back (the approval is worth trying again).
 */
export async function releaseStaleReservations(
  buyflow: Pick<Buyflow, 'requests' | 'policies'>,
  ledger: { householdId: string; memberId: string; month: string; currency: string },
  now: string,
): Promise<boolean> {
  const current = await buyflow.policies.getLedger(
    ledger.householdId,
    ledger.memberId,
    ledger.month,
    ledger.currency,
  );
  const stale = staleReservations(current, now);
  if (stale.size === 0) return false;
  const key = ledgerKey(ledger.householdId, ledger.memberId, ledger.month, ledger.currency);
  const spending = await buyflow.requests.spendingFrom(ledger.householdId, [...stale.keys()], key);
  return buyflow.policies.judge(key, stale, spending);
}

/** The ledger as the member's budget shows it: reservations of requests not approved (yet) into it left out. */
export async function spendingLedger(
  buyflow: Pick<Buyflow, 'requests'>,
  ledger: SpendingLedger | null,
): Promise<SpendingLedger | null> {
  if (!ledger?.pending || Object.keys(ledger.pending).length === 0) return ledger;
  const key = ledgerKey(ledger.householdId, ledger.memberId, ledger.month, ledger.currency);
  const spending = await buyflow.requests.spendingFrom(ledger.householdId, Object.keys(ledger.pending), key);
  return countedLedger(ledger, spending);
}
