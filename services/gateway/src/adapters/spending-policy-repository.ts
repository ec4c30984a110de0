import type { PurchaseRequest, SpendingPolicy } from '@hs/contracts';
import type { Store } from '@hs/store';
import { ABORT } from '@hs/store';
import {
  judgeStale,
  ledgerKey,
  releaseFromLedger,
  reserveInLedger,
  type SpendingLedger,
  settleInLedger,
} from '../domain/spending-policy.ts';

/** Per-member spending policies and the monthly ledgers that approvals reserve amounts in. */
export function createSpendingPolicyRepository(store: Store) {
  const policies = store.collection<SpendingPolicy>('spending_policies');
  const ledgers = store.collection<SpendingLedger>('spending_ledgers');
  const policyId = (householdId: string, memberId: string) => `${householdId}:${memberId}`;
  return {
    getPolicy: (householdId: string, memberId: string) => policies.get(policyId(householdId, memberId)),
    putPolicy: (p: SpendingPolicy) => policies.put(policyId(p.householdId, p.memberId), p),
    getLedger: (householdId: string, memberId: string, month: string, currency: string) =>
      ledgers.get(ledgerKey(householdId, memberId, month, currency)),
    /** Atomically reserves the request's total; throws 409 (ledger unchanged) when over budget. Returns the ledger key. */
    async reserve(
      request: PurchaseRequest,
      month: string,
      policy: SpendingPolicy | null,
      now: string,
    ): Promise<string> {
      const base = {
        householdId: request.householdId,
        memberId: request.requesterId,
        month,
        currency: request.currency,
      };
      const key = ledgerKey(base.householdId, base.memberId, month, base.currency);
      let failure: unknown;
      await ledgers.update(key, (current) => {
        failure = undefined;
        try {
          const next = reserveInLedger(current, base, policy, request, now);
          return next === current ? ABORT : next;
        } catch (err) {
          failure = err;
          return ABORT;
        }
      });
      if (failure) throw failure;
      return key;
    },
    async release(key: string, requestId: string): Promise<void> {
      await ledgers.update(key, (current) => releaseFromLedger(current, requestId) ?? ABORT);
    },
    /** The request's approval is on the request: its reservation is no longer judged stale. */
    async settle(key: string, requestId: string): Promise<void> {
      await ledgers.update(key, (current) => settleInLedger(current, requestId) ?? ABORT);
    },
    /** Settles or gives back the stale reservations read as `seen`; true when any was given back. */
    async judge(
      key: string,
      seen: ReadonlyMap<string, string>,
      spending: ReadonlySet<string>,
    ): Promise<boolean> {
      let released = false;
      await ledgers.update(key, (current) => {
        const next = judgeStale(current, seen, spending);
        released = !!next && Object.keys(next.amounts).length < Object.keys(current?.amounts ?? {}).length;
        return next ?? ABORT;
      });
      return released;
    },
  };
}

export type SpendingPolicyRepository = ReturnType<typeof createSpendingPolicyRepository>;
