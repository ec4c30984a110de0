import type { CollectionEntry } from '@hs/contracts';
import { ABORT, createSlotCounter, queryAll, type Store } from '@hs/store';
import {
  type EntryRef,
  entryRef,
  holds,
  MAX_COLLECTIONS_PER_HOUSEHOLD,
  MAX_ENTRIES_PER_COLLECTION,
  type StoredCollection,
  withEntries,
} from '../domain/collections.ts';
import { WARDROBE_COLLECTIONS } from './item-repository.ts';

type Upgrade = { doneAt: string };

/** The marker of the one-time backfill of `entryRefs` (in the `upgrades` collection). */
const ENTRY_REFS_UPGRADE = 'feed-collection-entry-refs';
const BACKFILL_PAGE = 200;

/** Feed collections of the household's items and outfits, with their per-household count. */
export function createCollectionRepository(store: Store) {
  const collections = store.collection<StoredCollection>(
    'feed_collections',
    WARDROBE_COLLECTIONS.feed_collections,
  );
  // One document per household: creating a collection takes a slot atomically, so concurrent
  // creates can't pass the cap together; deleting one gives its slot back.
  const held = createSlotCounter(store, 'collection_counts', 'collections');
  const upgrades = store.collection<Upgrade>('upgrades');

  /** Gives every collection stored before `entryRefs` existed its refs; once per store (marker). */
  async function backfillEntryRefs(): Promise<void> {
    if (await upgrades.get(ENTRY_REFS_UPGRADE)) return;
    let cursor: string | null = null;
    do {
      const page = await collections.query({ limit: BACKFILL_PAGE, cursor });
      for (const c of page.items.filter((c) => !c.entryRefs))
        await collections.update(c.collectionId, (current) =>
          current && !current.entryRefs ? withEntries(current, current.entries) : ABORT,
        );
      cursor = page.nextCursor;
    } while (cursor);
    await upgrades.update(ENTRY_REFS_UPGRADE, (done) => done ?? { doneAt: new Date().toISOString() });
  }
  let backfilled: Promise<void> | null = null;
  const refsReady = () =>
    (backfilled ??= backfillEntryRefs().catch((err: unknown) => {
      backfilled = null;
      throw err;
    }));

  return {
    /** Runs the one-time backfill now (at boot) rather than in the first delete that needs it. */
    prepare: refsReady,
    async get(householdId: string, collectionId: string): Promise<StoredCollection | null> {
      const c = await collections.get(collectionId);
      return c && c.householdId === householdId ? c : null;
    },
    /** False (nothing created) when the household has MAX_COLLECTIONS_PER_HOUSEHOLD already. */
    create: (c: StoredCollection): Promise<boolean> =>
      held.createWithin(
        c.householdId,
        MAX_COLLECTIONS_PER_HOUSEHOLD,
        () => collections.count([['householdId', '==', c.householdId]]),
        () => collections.create(c.collectionId, withEntries(c, c.entries)),
      ),
    /**
     * Deletes the collection atomically, after `check` (which may throw to refuse) approved it,
     * and gives its slot back; false when the household has no such collection.
     */
    async remove(householdId: string, collectionId: string, check: (c: StoredCollection) => void) {
      let refusal: unknown = null;
      const result = await collections.update(collectionId, (c) => {
        refusal = null;
        if (!c || c.householdId !== householdId) return ABORT;
        try {
          check(c);
        } catch (err) {
          refusal = err;
          return ABORT;
        }
        return null;
      });
      if (refusal) throw refusal;
      if (!result.changed) return false;
      await held.give(householdId, 1);
      return true;
    },
    newest: (householdId: string, limit: number) =>
      collections.query({
        where: [['householdId', '==', householdId]],
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
        limit,
      }),
    /** Ids of the household's collections listing the item or outfit. */
    async idsHolding(householdId: string, ref: EntryRef): Promise<string[]> {
      await refsReady();
      const found = await queryAll(collections, {
        where: [
          ['householdId', '==', householdId],
          ['entryRefs', 'array-contains', entryRef(ref)],
        ],
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
      });
      return found.map((c) => c.collectionId);
    },
    /**
     * Appends the entry atomically; a second add of the same one changes nothing. 'full' when the
     * collection holds MAX_ENTRIES_PER_COLLECTION already, null when the household has no such collection.
     */
    async addEntry(
      householdId: string,
      collectionId: string,
      entry: CollectionEntry,
    ): Promise<StoredCollection | 'full' | null> {
      let full = false;
      const result = await collections.update(collectionId, (c) => {
        full = false;
        if (!c || c.householdId !== householdId || holds(c, entry)) return ABORT;
        full = c.entries.length >= MAX_ENTRIES_PER_COLLECTION;
        if (full) return ABORT;
        return { ...withEntries(c, [...c.entries, entry]), updatedAt: entry.addedAt };
      });
      if (full) return 'full';
      return result.doc && result.doc.householdId === householdId ? result.doc : null;
    },
    /** Drops the entry atomically; false when the collection does not list it. */
    async removeEntry(householdId: string, collectionId: string, ref: EntryRef, now: string) {
      const result = await collections.update(collectionId, (c) => {
        if (!c || c.householdId !== householdId || !holds(c, ref)) return ABORT;
        const entries = c.entries.filter((e) => !(e.type === ref.type && e.id === ref.id));
        return { ...withEntries(c, entries), updatedAt: now };
      });
      return result.changed;
    },
  };
}

export type CollectionRepository = ReturnType<typeof createCollectionRepository>;
