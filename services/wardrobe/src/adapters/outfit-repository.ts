import type { Outfit } from '@hs/contracts';
import { ABORT, createSlotCounter, queryAll, type Store } from '@hs/store';
import { HOUSEHOLD_COUNTS, WARDROBE_COLLECTIONS } from './item-repository.ts';

/** What a household may hold unless configured otherwise (WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD). */
export const DEFAULT_MAX_OUTFITS_PER_HOUSEHOLD = 2000;

// Imported from here by test/firestore-index-coverage.test.ts.

/** Outfits, with the household's outfit count: a create takes a slot atomically (`maxOutfits`). */
export function createOutfitRepository(store: Store, maxOutfits = DEFAULT_MAX_OUTFITS_PER_HOUSEHOLD) {
  const outfits = store.collection<Outfit>('outfits', WARDROBE_COLLECTIONS.outfits);
  const held = createSlotCounter(store, HOUSEHOLD_COUNTS, 'outfits');
  return {
    async get(householdId: string, outfitId: string): Promise<Outfit | null> {
      const o = await outfits.get(outfitId);
      return o && o.householdId === householdId ? o : null;
    },
    /** False (nothing created) when the household holds `maxOutfits` already. */
    create: (o: Outfit): Promise<boolean> =>
      held.createWithin(
        o.householdId,
        maxOutfits,
        () => outfits.count([['householdId', '==', o.householdId]]),
        () => outfits.create(o.outfitId, o),
      ),
    maxOutfits,
    newest: (householdId: string, limit: number) =>
      outfits.query({
        where: [['householdId', '==', householdId]],
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
        limit,
      }),
    /** False when the household has no such outfit; `check` may throw to refuse (nothing deleted). */
    async delete(
      householdId: string,
      outfitId: string,
      check: (o: Outfit) => void = () => {},
    ): Promise<boolean> {
      const o = await outfits.get(outfitId);
      if (!o || o.householdId !== householdId) return false;
      check(o);
      const deleted = await outfits.delete(outfitId);
      if (deleted) await held.give(householdId, 1);
      return deleted;
    },
    /** Ids of the household's outfits that contain the item (ordered, so an index serves it). */
    async idsWithItem(householdId: string, itemId: string): Promise<string[]> {
      const found = await queryAll(outfits, {
        where: [
          ['householdId', '==', householdId],
          ['itemIds', 'array-contains', itemId],
        ],
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
      });
      return found.map((o) => o.outfitId);
    },
    /** Atomically drops the item from the outfit; an outfit left empty is deleted. */
    async withoutItem(
      householdId: string,
      outfitId: string,
      itemId: string,
      now: string,
    ): Promise<'changed' | 'deleted' | 'none'> {
      let emptied = false;
      const result = await outfits.update(outfitId, (o) => {
        if (!o || o.householdId !== householdId || !o.itemIds.includes(itemId)) return ABORT;
        const itemIds = o.itemIds.filter((i) => i !== itemId);
        emptied = itemIds.length === 0;
        return emptied ? null : { ...o, itemIds, updatedAt: now };
      });
      if (!result.changed) return 'none';
      if (!emptied) return 'changed';
      await held.give(householdId, 1);
      return 'deleted';
    },
  };
}

export type OutfitRepository = ReturnType<typeof createOutfitRepository>;
