import type { FeedCollection, Outfit } from '@hs/contracts';
import { ABORT, type Store } from '@hs/store';
import { WARDROBE_COLLECTIONS } from './item-repository.ts';

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
    async delete(householdId: string, outfitId: string): Promise<boolean> {
      const o = await outfits.get(outfitId);
      if (!o || o.householdId !== householdId) return false;
      return outfits.delete(outfitId);
    },
  };
}

export function createCollectionRepository(store: Store) {
  const collections = store.collection<FeedCollection>(
    'feed_collections',
    WARDROBE_COLLECTIONS.feed_collections,
  );
  return {
    async get(householdId: string, collectionId: string): Promise<FeedCollection | null> {
      const c = await collections.get(collectionId);
      return c && c.householdId === householdId ? c : null;
    },
    create: (c: FeedCollection) => collections.create(c.collectionId, c),
    newest: (householdId: string, limit: number) =>
      collections.query({
        where: [['householdId', '==', householdId]],
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
        limit,
      }),
    /** Pure change of a household's collection; null when missing. */
    async change(
      householdId: string,
      collectionId: string,
      apply: (c: FeedCollection) => FeedCollection | typeof ABORT,
    ) {
      const result = await collections.update(collectionId, (current) =>
        current && current.householdId === householdId ? apply(current) : ABORT,
      );
      return result.doc && result.doc.householdId === householdId ? result.doc : null;
    },
  };
}

export type OutfitRepository = ReturnType<typeof createOutfitRepository>;
export type CollectionRepository = ReturnType<typeof createCollectionRepository>;
