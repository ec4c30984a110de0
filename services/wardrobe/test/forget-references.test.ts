import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const W = '/api/v1/households/h_1/wardrobe';

describe('deleting what outfits and collections point at', () => {
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp();
  });
  afterAll(() => app.stop());

  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url: `${W}${url}`, headers, payload });
  const get = (url: string) => app.inject({ method: 'GET', url: `${W}${url}`, headers });

  it('drops a deleted item from outfits and collections, and an outfit left empty with it', async () => {
    const top = await createItem(app, { brand: 'Acme' });
    const skirt = await createItem(app, { category: 'BOTTOM' });
    const pair = (await post('/outfits', { itemIds: [top.itemId, skirt.itemId], name: 'Pair' })).json();
    const solo = (await post('/outfits', { itemIds: [top.itemId], name: 'Solo' })).json();
    const col = (await post('/feed/collections', { name: 'Keep' })).json();
    for (const entry of [
      { type: 'ITEM', id: top.itemId },
      { type: 'ITEM', id: skirt.itemId },
      { type: 'OUTFIT', id: solo.outfitId },
      { type: 'OUTFIT', id: pair.outfitId },
    ])
      expect((await post(`/feed/collections/${col.collectionId}/entries`, entry)).statusCode).toBeLessThan(
        300,
      );

    const deleted = await app.inject({ method: 'DELETE', url: `${W}/items/${top.itemId}`, headers });
    expect(deleted.statusCode).toBe(204);

    expect((await get(`/outfits/${pair.outfitId}`)).json().itemIds).toEqual([skirt.itemId]);
    expect((await get(`/outfits/${solo.outfitId}`)).statusCode).toBe(404);
    const entries = (await get(`/feed/collections/${col.collectionId}`)).json().entries as Array<{
      type: string;
      id: string;
    }>;
    expect(entries.map((e) => `${e.type}:${e.id}`)).toEqual([
      `ITEM:${skirt.itemId}`,
      `OUTFIT:${pair.outfitId}`,
    ]);
  });

  it('drops a deleted outfit from collections', async () => {
    const item = await createItem(app, {});
    const outfit = (await post('/outfits', { itemIds: [item.itemId], name: 'One' })).json();
    const col = (await post('/feed/collections', { name: 'Looks' })).json();
    await post(`/feed/collections/${col.collectionId}/entries`, { type: 'OUTFIT', id: outfit.outfitId });
    expect(
      (await app.inject({ method: 'DELETE', url: `${W}/outfits/${outfit.outfitId}`, headers })).statusCode,
    ).toBe(204);
    expect((await get(`/feed/collections/${col.collectionId}`)).json().entries).toEqual([]);
  });
});
