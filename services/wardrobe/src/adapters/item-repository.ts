import {
  ABORT,
  type CollectionOptions,
  createSlotCounter,
  type IndexSpec,
  type Page,
  queryAll,
  type Store,
  type Where,
} from '@hs/store';
import type { StoredItem, Tombstone } from '../domain/items.ts';

/** One document per household counting its items and outfits (createSlotCounter). */
export const HOUSEHOLD_COUNTS = 'household_counts';

function itemIndexes() {
  const heads = [
    ['householdId'],
    ['householdId', 'category'],
    ['householdId', 'ownerMemberId'],
    ['householdId', 'category', 'ownerMemberId'],
  ];
  return heads.flatMap((h) => [{ fields: [...h, 'updatedAt'] }, { fields: [...h, 'season', 'updatedAt'] }]);
}

/**
 * A household's documents holding one array element, in order, on every backend: sqlite walks a
 * walk table keyed by (household, element) and the memory store one sorted list, instead of every
 * document of the household probed for the element (deleting an item or outfit asks this of the
 * outfits and the collections); Firestore has the composite index.
 */
function everywhere(fields: string[]): IndexSpec[] {
  return [
    { fields, embeddedOnly: true },
    { fields, firestoreOnly: true },
  ];
}

export const WARDROBE_COLLECTIONS: Record<string, CollectionOptions> = {
  items: { indexes: itemIndexes(), arrayFields: ['season'] },
  item_tombstones: { indexes: [{ fields: ['householdId', 'deletedAt'] }] },
  outfits: {
    indexes: [
      { fields: ['householdId', 'updatedAt'] },
      ...everywhere(['householdId', 'itemIds', 'updatedAt']),
    ],
    arrayFields: ['itemIds'],
  },
  feed_collections: {
    indexes: [
      { fields: ['householdId', 'updatedAt'] },
      ...everywhere(['householdId', 'entryRefs', 'updatedAt']),
    ],
    arrayFields: ['entryRefs'],
  },
};

/** How many tombstones one sync answer carries; older deletions are older than any sane sync gap. */
const MAX_TOMBSTONES = 1000;

export type ItemFilter = {
  category?: string;
  season?: string;
  ownerMemberId?: string;
  updatedSince?: string;
};

export type Change<T> = { kind: 'missing' } | { kind: 'refused'; reason: unknown } | { kind: 'done'; doc: T };

/** What a household may hold unless configured otherwise (WARDROBE_MAX_ITEMS_PER_HOUSEHOLD). */
export const DEFAULT_MAX_ITEMS_PER_HOUSEHOLD = 5000;

/**
 * Items and their deletion tombstones (kept so offline clients learn what disappeared), with the
 * household's item count: a create takes a slot atomically, so a burst can't pass `maxItems`.
 */
export function createItemRepository(store: Store, maxItems = DEFAULT_MAX_ITEMS_PER_HOUSEHOLD) {
  const items = store.collection<StoredItem>('items', WARDROBE_COLLECTIONS.items);
  const tombstones = store.collection<Tombstone>('item_tombstones', WARDROBE_COLLECTIONS.item_tombstones);
  const held = createSlotCounter(store, HOUSEHOLD_COUNTS, 'items');

  return {
    async get(householdId: string, itemId: string): Promise<StoredItem | null> {
      const item = await items.get(itemId);
      return item && item.householdId === householdId ? item : null;
    },
    async getMany(householdId: string, ids: readonly string[]): Promise<Map<string, StoredItem>> {
      const found = await items.getMany(ids);
      for (const [id, item] of found) if (item.householdId !== householdId) found.delete(id);
      return found;
    },
    /** False (nothing created) when the household holds `maxItems` already. */
    create: (item: StoredItem): Promise<boolean> =>
      held.createWithin(
        item.householdId,
        maxItems,
        () => items.count([['householdId', '==', item.householdId]]),
        () => items.create(item.itemId, item),
      ),
    maxItems,
    list(
      householdId: string,
      filter: ItemFilter,
      limit: number,
      cursor: string | null,
    ): Promise<Page<StoredItem>> {
      const where: Where[] = [['householdId', '==', householdId]];
      if (filter.category) where.push(['category', '==', filter.category]);
      if (filter.ownerMemberId) where.push(['ownerMemberId', '==', filter.ownerMemberId]);
      if (filter.season) where.push(['season', 'array-contains', filter.season]);
      if (filter.updatedSince) where.push(['updatedAt', '>=', filter.updatedSince]);
      return items.query({ where, orderBy: [{ field: 'updatedAt', direction: 'asc' }], limit, cursor });
    },
    newest: (householdId: string, limit: number) =>
      items.query({
        where: [['householdId', '==', householdId]],
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
        limit,
      }),
    /** Every item of the household (the quota's first count, reclaiming abandoned uploads). */
    all: (householdId: string) =>
      queryAll(items, {
        where: [['householdId', '==', householdId]],
        orderBy: [{ field: 'updatedAt', direction: 'asc' }],
      }),
    async deletedSince(householdId: string, since: string): Promise<Tombstone[]> {
      const page = await tombstones.query({
        where: [
          ['householdId', '==', householdId],
          ['deletedAt', '>=', since],
        ],
        orderBy: [{ field: 'deletedAt', direction: 'asc' }],
        limit: MAX_TOMBSTONES,
      });
      return page.items;
    },
    /**
     * Atomic change of one item of the household. `apply` is pure; it may throw to refuse
     * (a stale If-Match, an already confirmed image), which leaves the item untouched.
     */
    async change(
      householdId: string,
      itemId: string,
      apply: (item: StoredItem) => StoredItem | null,
    ): Promise<Change<StoredItem | null>> {
      // Set by the last run of the (possibly retried) pure update function.
      const last: { outcome: 'missing' | 'refused' | 'done'; reason?: unknown } = { outcome: 'done' };
      const result = await items.update(itemId, (current) => {
        last.outcome = 'done';
        if (!current || current.householdId !== householdId) {
          last.outcome = 'missing';
          return ABORT;
        }
        try {
          return apply(current);
        } catch (err) {
          last.outcome = 'refused';
          last.reason = err;
          return ABORT;
        }
      });
      if (last.outcome === 'missing') return { kind: 'missing' };
      if (last.outcome === 'refused') return { kind: 'refused', reason: last.reason };
      return { kind: 'done', doc: result.doc };
    },
    /**
     * Deletes with a tombstone written first: if the process dies in between, the item is still
     * there and a retried DELETE finishes; the reverse order could lose the deletion for syncing
     * clients. A refused delete (stale If-Match) takes its tombstone back.
     */
    async remove(
      householdId: string,
      itemId: string,
      check: (item: StoredItem) => void,
      now: string,
    ): Promise<Change<StoredItem>> {
      const current = await items.get(itemId);
      if (!current || current.householdId !== householdId) return { kind: 'missing' };
      try {
        check(current);
      } catch (reason) {
        return { kind: 'refused', reason };
      }
      await tombstones.put(itemId, { itemId, householdId, deletedAt: now });
      let removed: StoredItem | null = null;
      const outcome = await this.change(householdId, itemId, (item) => {
        check(item);
        removed = item;
        return null;
      });
      if (outcome.kind !== 'done') {
        await tombstones.delete(itemId);
        return outcome;
      }
      await held.give(householdId, 1);
      return { kind: 'done', doc: removed ?? current };
    },
  };
}

export type ItemRepository = ReturnType<typeof createItemRepository>;
