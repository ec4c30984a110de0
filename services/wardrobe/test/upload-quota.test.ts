import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Collection, type CollectionOptions, createStore, type Doc, type Store } from '@hs/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WARDROBE_COLLECTIONS } from '../src/adapters/item-repository.ts';
import { as, createItem, headers, PNG, pathOf, type TestWardrobe, wardrobeApp } from './helpers.ts';

const W = '/api/v1/households/h_1/wardrobe';
const PER_UPLOAD = 400_000;
const QUOTA = 1024 * 1024; // two whole upload URLs and 248,576 bytes
const dir = mkdtempSync(join(tmpdir(), 'wardrobe-quota-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['in memory', () => createStore({ backend: 'inmemory' })],
  ['sqlite', () => createStore({ backend: 'sqlite', file: join(dir, `${Math.random()}.sqlite`) })],
] as const)('per-household image quota (%s)', (_name, open) => {
  let store: Store;
  let app: TestWardrobe;
  beforeAll(async () => {
    store = open();
    app = await wardrobeApp({
      store,
      env: { UPLOAD_MAX_BYTES: String(PER_UPLOAD), WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD: String(QUOTA) },
    });
  });
  afterAll(async () => {
    await app.stop();
    await store.close();
  });

  const uploadUrl = (itemId: string, household = 'h_1') =>
    app.inject({
      method: 'POST',
      url: `/api/v1/households/${household}/wardrobe/items/${itemId}/upload-url`,
      headers: household === 'h_1' ? headers : { ...headers, 'x-user-id': 'usr_c' },
      payload: { contentType: 'image/png' },
    });
  const allowed = (res: { json(): { uploadUrl: string } }) =>
    Number(new URL(res.json().uploadUrl).searchParams.get('max'));
  const fillQuota = async (itemId: string) => {
    const urls = [];
    for (let i = 0; i < 3; i++) urls.push(await uploadUrl(itemId));
    return urls;
  };
  const deleteItem = (itemId: string) =>
    app.inject({ method: 'DELETE', url: `${W}/items/${itemId}`, headers });

  it('hands out upload URLs until the quota is taken, the last one for what is left; then 409', async () => {
    const { itemId } = await createItem(app);
    const urls = await fillQuota(itemId);
    expect(urls.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(urls.map(allowed)).toEqual([PER_UPLOAD, PER_UPLOAD, QUOTA - 2 * PER_UPLOAD]);

    const refused = await uploadUrl(itemId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message: `The household's image storage is full (${QUOTA} bytes, WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD); delete items with images to make room`,
    });
    // Another household has its own quota.
    const theirs = await createItem(app, {}, 'h_2', 'usr_c');
    expect((await uploadUrl(theirs.itemId, 'h_2')).statusCode).toBe(200);

    // Deleting the item gives its bytes back.
    expect((await deleteItem(itemId)).statusCode).toBe(204);
    const next = await createItem(app);
    const again = await uploadUrl(next.itemId);
    expect(again.statusCode).toBe(200);
    expect(allowed(again)).toBe(PER_UPLOAD);
    await deleteItem(next.itemId);
  });

  it('a confirmed image holds only its size: the rest of its URL is given back', async () => {
    const { itemId } = await createItem(app);
    const [first] = await fillQuota(itemId);
    expect((await uploadUrl(itemId)).statusCode).toBe(409);
    const signed = first!.json();
    const put = await app.inject({
      method: 'PUT',
      url: pathOf(signed.uploadUrl),
      headers: signed.headers,
      payload: PNG,
    });
    expect(put.statusCode).toBe(200);
    const confirm = await app.inject({
      method: 'POST',
      url: `${W}/items/${itemId}/images/${signed.imageId}/confirm`,
      headers,
    });
    expect(confirm.statusCode).toBe(200);
    const after = await uploadUrl(itemId);
    expect(after.statusCode).toBe(200);
    expect(allowed(after)).toBe(PER_UPLOAD - PNG.length);
    await deleteItem(itemId);
  });

  it('deleting an image gives its bytes back; unknown item or image is 404, a CHILD only their own', async () => {
    const { itemId } = await createItem(app);
    const [first] = await fillQuota(itemId);
    expect((await uploadUrl(itemId)).statusCode).toBe(409);
    const { imageId } = first!.json();
    const image = `${W}/items/${itemId}/images/${imageId}`;
    const child = { ...as('usr_b'), 'x-member-role': 'CHILD' };
    expect((await app.inject({ method: 'DELETE', url: image, headers: child })).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD may change only their own wardrobe items',
    });
    expect((await app.inject({ method: 'DELETE', url: image, headers })).statusCode).toBe(204);
    const item = await app.inject({ method: 'GET', url: `${W}/items/${itemId}`, headers });
    expect(item.json().images.map((i: { imageId: string }) => i.imageId)).not.toContain(imageId);
    const after = await uploadUrl(itemId);
    expect(after.statusCode).toBe(200);
    expect(allowed(after)).toBe(PER_UPLOAD);

    expect((await app.inject({ method: 'DELETE', url: image, headers })).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Image not found',
    });
    const noItem = `${W}/items/item_missing/images/${imageId}`;
    expect((await app.inject({ method: 'DELETE', url: noItem, headers })).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Item not found',
    });
    // Its upload URL can't bring the bytes back.
    const put = await app.inject({
      method: 'PUT',
      url: pathOf(first!.json().uploadUrl),
      headers: first!.json().headers,
      payload: PNG,
    });
    expect(put.statusCode).toBe(404);
    await deleteItem(itemId);
  });

  it('a count left too high (a give-back that failed) is set right when the household is next full', async () => {
    const { itemId } = await createItem(app);
    await store.collection('upload_usage').update('h_1', () => ({ householdId: 'h_1', bytes: QUOTA }));
    // Later than any earlier fruitless look (they wait a minute).
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10 * 60_000);
    const res = await uploadUrl(itemId).finally(() => clock.mockRestore());
    expect(res.statusCode).toBe(200);
    expect(allowed(res)).toBe(PER_UPLOAD);
    await deleteItem(itemId);
  });

  it('a burst of upload URLs never passes the quota', async () => {
    const { itemId } = await createItem(app);
    const other = await createItem(app);
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => uploadUrl(itemId)),
      ...Array.from({ length: 5 }, () => uploadUrl(other.itemId)),
    ]);
    const granted = replies.filter((r) => r.statusCode === 200);
    expect(granted.map(allowed).reduce((a, b) => a + b, 0)).toBe(QUOTA);
    expect(replies.filter((r) => r.statusCode === 409)).toHaveLength(10 - granted.length);
    await deleteItem(itemId);
    await deleteItem(other.itemId);
  });

  it('uploads abandoned anywhere in the household are dropped to make room (looked for once a minute)', async () => {
    const { itemId } = await createItem(app);
    await fillQuota(itemId);
    // Full, and nothing abandoned yet: the household looks again only after a minute.
    expect((await uploadUrl(itemId)).statusCode).toBe(409);
    // Their URLs expired long ago and nobody confirmed them.
    const items = store.collection<Record<string, unknown>>('items', WARDROBE_COLLECTIONS.items);
    await items.update(itemId, (item) =>
      item
        ? {
            ...item,
            images: (item.images as object[]).map((i) => ({ ...i, createdAt: '2020-01-01T00:00:00.000Z' })),
          }
        : null,
    );
    const other = await createItem(app);
    expect((await uploadUrl(other.itemId)).statusCode).toBe(409);
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 61_000);
    const res = await uploadUrl(other.itemId).finally(() => clock.mockRestore());
    expect(res.statusCode).toBe(200);
    expect(allowed(res)).toBe(PER_UPLOAD);
    const item = await app.inject({ method: 'GET', url: `${W}/items/${itemId}`, headers });
    expect(item.json().images).toEqual([]);
  });
});

describe('deleting an item when its bytes cannot be given back', () => {
  it('still answers 204 and finishes the clean-up (collections stop listing it)', async () => {
    const store = createStore({ backend: 'inmemory' });
    let failUsage = false;
    const failing: Store = {
      ...store,
      collection<T extends Doc>(name: string, options?: CollectionOptions) {
        const collection = store.collection<T>(name, options);
        if (name !== 'upload_usage') return collection;
        return {
          ...collection,
          update: async (id: string, mutate: Parameters<Collection<T>['update']>[1]) => {
            if (failUsage) throw new Error('disk full');
            return collection.update(id, mutate);
          },
        };
      },
    };
    const app = await wardrobeApp({ store: failing });
    try {
      const { itemId } = await createItem(app);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: `${W}/items/${itemId}/upload-url`,
            headers,
            payload: { contentType: 'image/png' },
          })
        ).statusCode,
      ).toBe(200);
      const collection = await app.inject({
        method: 'POST',
        url: `${W}/feed/collections`,
        headers,
        payload: { name: 'Winter' },
      });
      const collectionId = collection.json().collectionId;
      await app.inject({
        method: 'POST',
        url: `${W}/feed/collections/${collectionId}/entries`,
        headers,
        payload: { type: 'ITEM', id: itemId },
      });
      failUsage = true;
      expect((await app.inject({ method: 'DELETE', url: `${W}/items/${itemId}`, headers })).statusCode).toBe(
        204,
      );
      const listed = await app.inject({
        method: 'GET',
        url: `${W}/feed/collections/${collectionId}`,
        headers,
      });
      expect(listed.json().entries).toEqual([]);
    } finally {
      await app.stop();
      await store.close();
    }
  });
});
