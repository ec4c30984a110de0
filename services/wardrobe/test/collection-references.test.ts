import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { CollectionEntry, Outfit } from '@hs/contracts';
import { type Collection, createStore, type Doc, type Store } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCollectionRepository } from '../src/adapters/collection-repository.ts';
import { createItemRepository, WARDROBE_COLLECTIONS } from '../src/adapters/item-repository.ts';
import { createOutfitRepository } from '../src/adapters/outfit-repository.ts';
import type { WardrobeContext } from '../src/context.ts';
import { forgetItem } from '../src/flows/forget-references.ts';

const AT = '2024-01-01T00:00:00.000Z';
const entry = (type: 'ITEM' | 'OUTFIT', id: string): CollectionEntry => ({
  type,
  id,
  addedAt: AT,
  addedBy: null,
});
/** A collection as stored before `entryRefs` existed. */
const legacy = (collectionId: string, householdId: string, entries: CollectionEntry[]) => ({
  collectionId,
  householdId,
  name: collectionId,
  entries,
  createdBy: null,
  createdAt: AT,
  updatedAt: AT,
});
const outfit = (outfitId: string, householdId: string, itemIds: string[]): Outfit => ({
  outfitId,
  householdId,
  name: outfitId,
  itemIds,
  offerIds: [],
  source: 'MANUAL',
  why: [],
  createdBy: null,
  createdAt: AT,
  updatedAt: AT,
});

/** The store, recording the ids of the feed collections each atomic update touches. */
function recordingUpdates(store: Store, touched: string[]): Store {
  return new Proxy(store, {
    get(target, key) {
      if (key !== 'collection') return Reflect.get(target, key);
      return (name: string, options: unknown) => {
        const c = target.collection(name, options as never) as Collection<Doc>;
        if (name !== 'feed_collections') return c;
        return new Proxy(c, {
          get: (t, k) =>
            k === 'update'
              ? (id: string, fn: never) => {
                  touched.push(id);
                  return t.update(id, fn);
                }
              : Reflect.get(t, k),
        });
      };
    },
  });
}

describe.each(['inmemory', 'sqlite'] as const)('deleting references on %s', (backend) => {
  let dir: string;
  let file: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wardrobe-refs-'));
    file = join(dir, 'wardrobe.sqlite');
    store = backend === 'sqlite' ? createStore({ backend, file }) : createStore({ backend });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('touches only the collections listing the item, including collections stored before entryRefs', async () => {
    const raw = store.collection<Doc>('feed_collections', WARDROBE_COLLECTIONS.feed_collections);
    const before = [
      ...Array.from({ length: 30 }, (_, i) =>
        legacy(`col_old${i}`, 'h_1', [
          entry('ITEM', 'item_other'),
          ...(i % 10 === 3 ? [entry('ITEM', 'item_x')] : []),
        ]),
      ),
      legacy('col_theirs', 'h_2', [entry('ITEM', 'item_x')]),
    ];
    await raw.createMany(before.map((c) => [c.collectionId, c]));
    const touched: string[] = [];
    const recorded = recordingUpdates(store, touched);
    const ctx = {
      items: createItemRepository(recorded),
      outfits: createOutfitRepository(recorded),
      collections: createCollectionRepository(recorded),
    } as unknown as WardrobeContext;
    await ctx.collections.prepare?.();
    await ctx.collections.create({ ...legacy('col_new', 'h_1', [entry('ITEM', 'item_x')]), entryRefs: [] });
    touched.length = 0;

    await forgetItem(ctx, 'h_1', 'item_x');

    const holders = ['col_new', 'col_old13', 'col_old23', 'col_old3'];
    expect(touched.sort()).toEqual(holders);
    for (const id of holders)
      expect((await raw.get(id))?.entries).not.toContainEqual(entry('ITEM', 'item_x'));
    // The others are as they were (no rewrite, same updatedAt).
    for (const c of before.filter((c) => !holders.includes(c.collectionId)))
      expect(await raw.get(c.collectionId)).toMatchObject({ entries: c.entries, updatedAt: AT });
  });

  it("idsWithItem finds the household's outfits holding the item through an index", async () => {
    const raw = store.collection<Outfit>('outfits', WARDROBE_COLLECTIONS.outfits);
    await raw.createMany(
      [
        outfit('out_a', 'h_1', ['item_x', 'item_y']),
        outfit('out_b', 'h_1', ['item_y']),
        outfit('out_c', 'h_1', ['item_z', 'item_x']),
        outfit('out_d', 'h_2', ['item_x']),
      ].map((o) => [o.outfitId, o]),
    );
    const outfits = createOutfitRepository(store);
    expect((await outfits.idsWithItem('h_1', 'item_x')).sort()).toEqual(['out_a', 'out_c']);
    expect(await outfits.idsWithItem('h_2', 'item_x')).toEqual(['out_d']);
    expect(await outfits.idsWithItem('h_1', 'item_none')).toEqual([]);
    if (backend !== 'sqlite') return;
    // sqlite keeps a walk table keyed by (household, item): the query reads just those rows.
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const rows = db.prepare(
        'SELECT id FROM outfits__walk_householdId_itemIds_updatedAt WHERE instr(k, ?) > 0',
      );
      expect(
        rows
          .all('item_x')
          .map((r) => r.id)
          .sort(),
      ).toEqual(['out_a', 'out_c', 'out_d']);
    } finally {
      db.close();
    }
  });
});
