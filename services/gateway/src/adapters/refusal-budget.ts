import type { Store } from '@hs/store';
import { countHit, RATE_LIMIT_COLLECTIONS, type Window } from './rate-limit-store.ts';

/**
 * How many of one caller's repeats of one refusal (the same gate, the same code) a household's
 * audit log records per window. Each refusal on the buy flow is worth an entry (it is how a
 * guardian sees someone trying), but without a bound an outsider repeating one forbidden call
 * fills the family's log with copies of it. Counted per gate and code, so twenty harmless
 * refusals cannot hide a different attempt that follows them.
 */
export const REFUSALS_RECORDED = { limit: 20, windowMs: 10 * 60_000 } as const;

/** Whether this refusal is recorded, and for the last one recorded, until when the rest are not. */
export type RefusalVerdict = { record: true; quietUntil?: string } | { record: false };

export function createRefusalBudget(store: Store, budget = REFUSALS_RECORDED) {
  const windows = store.collection<Window>('rate_limits', RATE_LIMIT_COLLECTIONS.rate_limits);
  return {
    /**
     * Counts one refusal of `actorId` in `householdId` across every replica. A store failure
     * records it anyway: a lost count costs one entry, a lost refusal the guardian's view.
     */
    async admit(
      householdId: string,
      actorId: string | null,
      refusal: { action: string; code: string },
      now = Date.now(),
    ): Promise<RefusalVerdict> {
      const key = `refusal-audit:${householdId}:${actorId ?? 'anonymous'}:${refusal.action}:${refusal.code}`;
      const counted = await countHit(windows, key, budget.windowMs, now).catch(() => null);
      if (!counted || counted.current < budget.limit) return { record: true };
      if (counted.current > budget.limit) return { record: false };
      return { record: true, quietUntil: new Date(now + counted.ttl).toISOString() };
    },
  };
}

export type RefusalBudget = ReturnType<typeof createRefusalBudget>;
