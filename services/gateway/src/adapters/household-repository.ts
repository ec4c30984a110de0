import type { CollectionOptions, Store } from '@hs/store';
import { ABORT } from '@hs/store';
import { MAX_HOUSEHOLDS_PER_USER, type StoredHousehold } from '../domain/household-rules.ts';
import { createRecentCache } from './recent-cache.ts';

/**
 * Membership and roles a gateway may serve from memory (decisions: at most 2 s across replicas);
 * a change made through this gateway replaces its copy at once.
 */
export const MEMBERSHIP_CACHE_MS = 2000;
const MEMBERSHIP_CACHE_ENTRIES = 10_000;

/** `listFor`: memberIds array-contains, ordered by createdAt. */
export const HOUSEHOLD_COLLECTIONS = {
  households: { indexes: [{ fields: ['memberIds', 'createdAt'] }], arrayFields: ['memberIds'] },
} satisfies Record<string, CollectionOptions>;

/** Households in the gateway's store; every change goes through an atomic update. */
export function createHouseholdRepository(store: Store) {
  const households = store.collection<StoredHousehold>('households', HOUSEHOLD_COLLECTIONS.households);
  const recent = createRecentCache<StoredHousehold>(MEMBERSHIP_CACHE_ENTRIES);
  const remember = (h: StoredHousehold) => recent.set(h.householdId, h, Date.now() + MEMBERSHIP_CACHE_MS);
  const listeners: Array<(id: string, household: StoredHousehold | null) => void> = [];
  return {
    /** Called after every change made through this gateway, with the household as it now is. */
    onChange(listener: (id: string, household: StoredHousehold | null) => void): void {
      listeners.push(listener);
    },
    get: (id: string) => households.get(id),
    /** For access checks: may be up to MEMBERSHIP_CACHE_MS old unless changed through this gateway. */
    async getRecent(id: string): Promise<StoredHousehold | null> {
      const cached = recent.get(id);
      if (cached) return cached;
      const household = await households.get(id);
      if (household) remember(household);
      return household;
    },
    /** Read from the store now (the access watch's sweep), and kept for access checks. */
    async refresh(id: string): Promise<StoredHousehold | null> {
      const household = await households.get(id);
      if (household) remember(household);
      else recent.delete(id);
      return household;
    },
    async create(h: StoredHousehold) {
      const created = await households.create(h.householdId, h);
      recent.delete(h.householdId);
      return created;
    },
    /**
     * The households the user belongs to, oldest first: at most MAX_HOUSEHOLDS_PER_USER, the
     * most the household and member routes let a user join, read in one query.
     */
    async listFor(userId: string): Promise<StoredHousehold[]> {
      const page = await households.query({
        where: [['memberIds', 'array-contains', userId]],
        orderBy: [{ field: 'createdAt' }],
        limit: MAX_HOUSEHOLDS_PER_USER,
      });
      return page.items;
    },
    /** Applies a pure change; the change may throw an AppError, which leaves the household as it was. */
    async change(
      id: string,
      apply: (h: StoredHousehold) => StoredHousehold,
    ): Promise<StoredHousehold | null> {
      let failure: unknown;
      const result = await households.update(id, (current) => {
        if (!current) return ABORT;
        try {
          failure = undefined;
          return apply(current);
        } catch (err) {
          failure = err;
          return ABORT;
        }
      });
      // Whatever happened, the next access check reads the store again.
      recent.delete(id);
      if (failure) throw failure;
      if (result.doc) remember(result.doc);
      if (result.changed) for (const listener of listeners) listener(id, result.doc);
      return result.doc;
    },
  };
}

export type HouseholdRepository = ReturnType<typeof createHouseholdRepository>;
