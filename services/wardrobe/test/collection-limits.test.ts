import { createStore } from '@hs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollectionRepository } from '../src/adapters/collection-repository.ts';
import { WARDROBE_COLLECTIONS } from '../src/adapters/item-repository.ts';
import { createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const F = '/api/v1/households/h_1/wardrobe/feed';
const AT = '2024-01-01T00:00:00.000Z';

describe('collection limits', () => {
  const store = createStore({ backend: 'inmemory' });
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp({ store });
  });
  afterAll(() => app.stop());

  const newCollection = (household = 'h_1') =>
    app.inject({
      method: 'POST',
      url: `/api/v1/households/${household}/wardrobe/feed/collections`,
      headers: household === 'h_1' ? headers : { ...headers, 'x-user-id': 'usr_c' },
      payload: { name: 'Looks' },
    });
  const add = (collectionId: string, id: string) =>
    app.inject({
      method: 'POST',
      url: `${F}/collections/${collectionId}/entries`,
      headers,
      payload: { type: 'ITEM', id },
    });

  it('holds at most 500 entries: one more is 409 CONFLICT, one already there changes nothing', async () => {
    const col = (await newCollection()).json();
    // 500 items already listed, as the store holds them.
    const raw = store.collection<Record<string, unknown>>(
      'feed_collections',
      WARDROBE_COLLECTIONS.feed_collections,
    );
    const ids = Array.from({ length: 500 }, (_, i) => `item_${i}`);
    await raw.put(col.collectionId, {
      ...col,
      entries: ids.map((id) => ({ type: 'ITEM', id, addedAt: AT, addedBy: 'usr_a' })),
      entryRefs: ids.map((id) => `ITEM:${id}`),
    });
    const item = await createItem(app);
    const again = (await createItem(app)).itemId;
    await raw.update(col.collectionId, (c) =>
      c
        ? {
            ...c,
            entries: [
              ...(c.entries as object[]).slice(1),
              { type: 'ITEM', id: again, addedAt: AT, addedBy: null },
            ],
            entryRefs: [...(c.entryRefs as string[]).slice(1), `ITEM:${again}`],
          }
        : null,
    );

    const full = await add(col.collectionId, item.itemId);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ error: 'CONFLICT', message: 'A collection can hold at most 500 entries' });
    const same = await add(col.collectionId, again);
    expect(same.statusCode).toBe(200);
    expect(same.json().entryCount).toBe(500);
    const one = (
      await app.inject({ method: 'GET', url: `${F}/collections/${col.collectionId}`, headers })
    ).json();
    expect(one.entries).toHaveLength(500);
    expect(one.entries.map((e: { id: string }) => e.id)).not.toContain(item.itemId);
  });

  it('shows the newest 20 entries and entryCount in the feed and the list', async () => {
    const col = (await newCollection()).json();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const { itemId } = await createItem(app);
      ids.push(itemId);
      expect((await add(col.collectionId, itemId)).statusCode).toBe(200);
    }
    const feed = (await app.inject({ method: 'GET', url: `${F}?source=COLLECTIONS`, headers })).json();
    const shown = feed.entries.find((e: { id: string }) => e.id === col.collectionId).collection;
    expect(shown.entryCount).toBe(25);
    expect(shown.entries.map((e: { id: string }) => e.id)).toEqual(ids.slice(5));
    const list = (await app.inject({ method: 'GET', url: `${F}/collections`, headers })).json();
    const listed = list.items.find((c: { collectionId: string }) => c.collectionId === col.collectionId);
    expect(listed).toEqual(shown);
    const full = (
      await app.inject({ method: 'GET', url: `${F}/collections/${col.collectionId}`, headers })
    ).json();
    expect(full).toMatchObject({ entryCount: 25, entries: ids.map((id) => expect.objectContaining({ id })) });
    expect(full).not.toHaveProperty('entryRefs');
  });

  it('has at most 200 collections per household, even when created at once: one more is 409 CONFLICT', async () => {
    const have = (await app.inject({ method: 'GET', url: `${F}/collections`, headers })).json().items.length;
    for (let i = have; i < 190; i++) expect((await newCollection()).statusCode).toBe(201);
    const burst = await Promise.all(Array.from({ length: 30 }, () => newCollection()));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(10);
    const refused = burst.find((r) => r.statusCode !== 201)!;
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message: 'A household can have at most 200 collections',
    });
    expect((await app.inject({ method: 'GET', url: `${F}/collections`, headers })).json().items).toHaveLength(
      200,
    );
    // Another household is not affected.
    expect((await newCollection('h_2')).statusCode).toBe(201);
  });
});

describe('the collection counter', () => {
  it('gives the slot back when the collection could not be stored', async () => {
    const store = createStore({ backend: 'inmemory' });
    let failNext = true;
    // The store's own collections, but the next collection document write fails (a full disk).
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop !== 'collection') return Reflect.get(target, prop, receiver);
        return (name: string, options?: never) => {
          const real = target.collection(name, options);
          if (name !== 'feed_collections') return real;
          return new Proxy(real, {
            get(col, key, r) {
              if (key !== 'create') return Reflect.get(col, key, r);
              return async (...args: Parameters<typeof real.create>) => {
                if (failNext) {
                  failNext = false;
                  throw new Error('disk full');
                }
                return real.create(...args);
              };
            },
          });
        };
      },
    });
    const repo = createCollectionRepository(failing);
    const collection = (id: string) => ({
      collectionId: id,
      householdId: 'h_1',
      name: 'Looks',
      entries: [],
      createdAt: AT,
      updatedAt: AT,
    });
    await expect(repo.create(collection('col_1') as never)).rejects.toThrow('disk full');
    const counts = store.collection<{ collections: number }>('collection_counts');
    expect((await counts.get('h_1'))?.collections).toBe(0);
    expect(await repo.create(collection('col_2') as never)).toBe(true);
    expect((await counts.get('h_1'))?.collections).toBe(1);
  });
});
