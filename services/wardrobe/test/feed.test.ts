import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerFixture } from './fake-peers.ts';
import { as, createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const F = '/api/v1/households/h_1/wardrobe/feed';

describe('feed and collections', () => {
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp({ offers: [offerFixture({ updatedAt: '2020-01-01T00:00:00.000Z' })] });
  });
  afterAll(() => app.stop());

  it('refuses an unsupported source with 400 VALIDATION_ERROR', async () => {
    const res = await app.inject({ method: 'GET', url: `${F}?source=FRIENDS`, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [{ loc: ['querystring', 'source'] }],
    });
  });

  it('refuses a collection without a name with 400 VALIDATION_ERROR', async () => {
    for (const payload of [{}, { name: '   ' }]) {
      const res = await app.inject({ method: 'POST', url: `${F}/collections`, headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ loc: ['body', 'name'] }] });
    }
  });

  it('creates collections, adds items once, and shows everything in the feed, newest first', async () => {
    const item = await createItem(app, { brand: 'Acme' });
    const created = await app.inject({
      method: 'POST',
      url: `${F}/collections`,
      headers,
      payload: { name: 'Summer' },
    });
    expect(created.statusCode).toBe(201);
    const col = created.json();
    expect(col).toMatchObject({ name: 'Summer', entries: [], householdId: 'h_1' });
    expect(col.collectionId).toMatch(/^col_/);
    const add = () =>
      app.inject({
        method: 'POST',
        url: `${F}/collections/${col.collectionId}/entries`,
        headers,
        payload: { type: 'ITEM', id: item.itemId },
      });
    expect((await add()).json().entries).toEqual([
      expect.objectContaining({ type: 'ITEM', id: item.itemId, addedBy: 'usr_a' }),
    ]);
    expect((await add()).json().entries).toHaveLength(1);
    const missing = await app.inject({
      method: 'POST',
      url: `${F}/collections/${col.collectionId}/entries`,
      headers,
      payload: { type: 'OUTFIT', id: 'out_nope' },
    });
    expect(missing.json()).toEqual({ error: 'NOT_FOUND', message: 'Outfit not found' });
    expect((await app.inject({ method: 'GET', url: `${F}/collections`, headers })).json().items).toHaveLength(
      1,
    );

    const feed = (await app.inject({ method: 'GET', url: F, headers })).json();
    expect(feed.source).toBe('ALL');
    expect(feed.unavailableSources).toEqual([]);
    expect(feed.entries.map((e: { type: string }) => e.type)).toEqual(['COLLECTION', 'ITEM', 'OFFER']);
    const offers = (await app.inject({ method: 'GET', url: `${F}?source=OFFERS`, headers })).json();
    expect(offers.entries).toEqual([expect.objectContaining({ type: 'OFFER', id: 'off_1' })]);
    const wardrobe = (await app.inject({ method: 'GET', url: `${F}?source=WARDROBE`, headers })).json();
    expect(wardrobe.entries).toEqual([expect.objectContaining({ type: 'ITEM', id: item.itemId })]);
  });

  it("hides another household's collections as 404", async () => {
    const col = (
      await app.inject({ method: 'POST', url: `${F}/collections`, headers, payload: { name: 'Mine' } })
    ).json();
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_2/wardrobe/feed/collections/${col.collectionId}`,
      headers: as('usr_c'),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Collection not found' });
  });
});

describe('feed with commerce down', () => {
  it('serves the wardrobe sources and lists OFFERS as unavailable', async () => {
    const app = await wardrobeApp({ offers: null });
    await createItem(app);
    const feed = (await app.inject({ method: 'GET', url: F, headers })).json();
    expect(feed.unavailableSources).toEqual(['OFFERS']);
    expect(feed.entries).toHaveLength(1);
    await app.stop();
  });
});
