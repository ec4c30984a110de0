import type { CollectionEntry, FeedCollection } from '@hs/contracts';

/** Adding one more is 409 CONFLICT: each add rewrites the whole collection document. */
export const MAX_ENTRIES_PER_COLLECTION = 500;
/** Creating one more is 409 CONFLICT; the collection list shows them all. */
export const MAX_COLLECTIONS_PER_HOUSEHOLD = 200;
/**
 * How many entries (the newest) a collection shows in the feed and the collection list: 100 full
 * collections of 500 entries would be about 5.5 MB there. GET .../collections/{id} shows them all.
 */
export const PREVIEW_ENTRIES = 20;

/**
 * The stored collection: `entryRefs` (`ITEM:<id>`, `OUTFIT:<id>`, one per entry) lets deleting an
 * item or outfit find the collections listing it with one array-contains query instead of
 * reading every collection of the household. Collections stored before the field existed get it
 * from a one-time backfill (adapters/collection-repository.ts).
 */
export type StoredCollection = Omit<FeedCollection, 'entryCount'> & { entryRefs?: string[] };

export type EntryRef = { type: CollectionEntry['type']; id: string };
export const entryRef = (ref: EntryRef): string => `${ref.type}:${ref.id}`;

/** The collection with `entries`, and `entryRefs` kept in step with them. */
export function withEntries(c: StoredCollection, entries: CollectionEntry[]): StoredCollection {
  return { ...c, entries, entryRefs: entries.map(entryRef) };
}

export const holds = (c: StoredCollection, ref: EntryRef): boolean =>
  c.entries.some((e) => e.type === ref.type && e.id === ref.id);

/** The collection as the API shows it; `preview` keeps only the newest PREVIEW_ENTRIES entries. */
export function collectionView(c: StoredCollection, preview = false): FeedCollection {
  return {
    collectionId: c.collectionId,
    householdId: c.householdId,
    name: c.name,
    entries: preview ? c.entries.slice(-PREVIEW_ENTRIES) : c.entries,
    entryCount: c.entries.length,
    createdBy: c.createdBy,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
