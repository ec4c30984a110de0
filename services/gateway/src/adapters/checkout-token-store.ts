import type { Store } from '@hs/store';
import { ABORT, type CollectionOptions, deleteExpired } from '@hs/store';
import {
  CHECKOUT_TOKEN_RETENTION_MS,
  purgeAfterOf,
  type StoredCheckoutToken,
} from '../domain/confirmation-token.ts';

/**
 * Checkout confirmation tokens, keyed by the token's SHA-256 (the token itself is never stored).
 * Each record is kept CHECKOUT_TOKEN_RETENTION_MS past the token's expiry (its `purgeAfter`),
 * then purged (see purgeExpired).
 */
/**
 * The purge's two range queries, each ordered by its own field: without these indexes sqlite read
 * and sorted the whole table every hour (0.4 s at 500k records, blocking the gateway; 14 s per
 * run while 500k older records were due). `purgeAfter` is sparse: older records lack it.
 */
export const CHECKOUT_TOKEN_COLLECTIONS = {
  checkout_tokens: { indexes: [{ fields: ['purgeAfter'], sparse: true }, { fields: ['expiresAt'] }] },
} satisfies Record<string, CollectionOptions>;

export function createCheckoutTokenStore(store: Store) {
  const tokens = store.collection<StoredCheckoutToken>(
    'checkout_tokens',
    CHECKOUT_TOKEN_COLLECTIONS.checkout_tokens,
  );
  return {
    save: (t: StoredCheckoutToken) =>
      tokens.create(t.tokenHash, { ...t, purgeAfter: purgeAfterOf(t.expiresAt) }),
    find: (tokenHash: string) => tokens.get(tokenHash),
    /**
     * Spends the token: one compare-and-set that sets usedAt only while it is null. Under any
     * number of concurrent calls exactly one gets true. `usedUnder` (a keyed confirmation's
     * idempotency record id, never the key) is written in the same update, so a retry under that
     * key can tell that its own first attempt spent the token.
     */
    async spend(tokenHash: string, now: string, usedUnder?: string): Promise<boolean> {
      const result = await tokens.update(tokenHash, (t) =>
        t && t.usedAt === null ? { ...t, usedAt: now, ...(usedUnder ? { usedUnder } : {}) } : ABORT,
      );
      return result.changed;
    },
    /**
     * Deletes up to `batch` records past their retention, oldest first; returns how many (a full
     * batch means more may be waiting). Records whose `purgeAfter` has passed go first. Records
     * saved by an earlier version have no `purgeAfter` (a range filter never matches a missing
     * field, on any backend); with what is left of the batch they are found by their expiresAt
     * (an ISO string, so its order is time order) and deleted on the same terms:
     * CHECKOUT_TOKEN_RETENTION_MS after their expiry. Each delete re-checks atomically.
     */
    async purgeExpired(now = Date.now(), batch = 200): Promise<number> {
      const deleted = await deleteExpired(tokens, {
        field: 'purgeAfter',
        idOf: (t) => t.tokenHash,
        now,
        batch,
      });
      if (deleted >= batch) return deleted;
      // What the first pass left below its cutoff are older records without purgeAfter.
      const cutoff = now - CHECKOUT_TOKEN_RETENTION_MS;
      const legacy = await tokens.query({
        where: [['expiresAt', '<', new Date(cutoff).toISOString()]],
        orderBy: [{ field: 'expiresAt' }],
        limit: batch - deleted,
      });
      let removed = 0;
      for (const t of legacy.items) {
        if (t.purgeAfter !== undefined) continue;
        const result = await tokens.update(t.tokenHash, (current) =>
          current && current.purgeAfter === undefined && purgeAfterOf(current.expiresAt) < now ? null : ABORT,
        );
        if (result.changed) removed++;
      }
      return deleted + removed;
    },
  };
}

export type CheckoutTokenStore = ReturnType<typeof createCheckoutTokenStore>;
