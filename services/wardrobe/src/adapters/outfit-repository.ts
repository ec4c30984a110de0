import type { Outfit } from '@hs/contracts';
import { ABORT, queryAll, type Store } from '@hs/store';
import { WARDROBE_COLLECTIONS } from './item-repository.ts';

// Imported from here by test/firestore-index-coverage.test.ts.

export function createOutfitRepository(store: Store) {
  const outfits = store.collection<Outfit>('outfits', WARDROBE_COLLECTIONS.outfits);
  return {
    async get(householdId: string, outfitId: string): Promise<Outfit | null> {
      const o = await outfits.get(outfitId);
      return o && o.householdId === householdId ? o : null;
    },
    create: (o: Outfit) => outfits.create(o.outfitId, o),
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
      return outfits.delete(outfitId);
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
      return emptied ? 'deleted' : 'changed';
    },
  };
}

export type OutfitRepository = ReturnType<typeof createOutfitRepository>;
