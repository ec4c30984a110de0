import type { CollectionOptions, Store } from '@hs/store';
import { ABORT, queryAll } from '@hs/store';
import type { StoredHousehold } from '../domain/household-rules.ts';

/** `listFor`: memberIds array-contains, ordered by createdAt. */
export const HOUSEHOLD_COLLECTIONS = {
  households: { indexes: [{ fields: ['memberIds', 'createdAt'] }], arrayFields: ['memberIds'] },
} satisfies Record<string, CollectionOptions>;

/** Households in the gateway's store; every change goes through an atomic update. */
export function createHouseholdRepository(store: Store) {
  const households = store.collection<StoredHousehold>('households', HOUSEHOLD_COLLECTIONS.households);
  return {
    get: (id: string) => households.get(id),
    create: (h: StoredHousehold) => households.create(h.householdId, h),
    listFor: (userId: string): Promise<StoredHousehold[]> =>
      queryAll(households, {
        where: [['memberIds', 'array-contains', userId]],
        orderBy: [{ field: 'createdAt' }],
      }),
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
      if (failure) throw failure;
      return result.doc;
    },
  };
}

export type HouseholdRepository = ReturnType<typeof createHouseholdRepository>;
