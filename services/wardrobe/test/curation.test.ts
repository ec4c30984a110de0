import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerFixture } from './fake-peers.ts';
import { addImage, as, createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const W = '/api/v1/households/h_1/wardrobe';

describe('curation with commerce up', () => {
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp({
      offers: [offerFixture({}), offerFixture({ offerId: 'off_x', householdId: 'h_2' })],
    });
  });
  afterAll(() => app.stop());

  it('needs a confirmed image (400), then builds looks from the wardrobe plus an offer for the gap', async () => {
    const top = await createItem(app, {
      category: 'TOP',
      colors: ['blue'],
      season: ['SUMMER'],
      brand: 'Acme',
    });
    const chinos = await createItem(app, { category: 'BOTTOM', colors: ['beige'], season: ['SUMMER'] });
    const curate = `${W}/items/${top.itemId}/curate`;
    const noImage = await app.inject({ method: 'POST', url: curate, headers });
    expect(noImage.statusCode).toBe(400);
    expect(noImage.json()).toEqual({ error: 'BAD_REQUEST', message: 'The item has no confirmed image yet' });

    await addImage(app, top.itemId);
    const res = await app.inject({ method: 'POST', url: curate, headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ itemId: top.itemId, backend: 'local', offers: 'INCLUDED', notes: [] });
    expect(body.looks[0].itemIds).toEqual([top.itemId, chinos.itemId]);
    expect(body.looks[0].offerIds).toEqual(['off_1']);
    expect(body.looks[0].why[0]).toBe(
      'Complementary categories: TOP + BOTTOM + SHOES make a complete outfit',
    );
    const search = app.commerce!.calls.at(-1)!;
    expect(search).toMatchObject({
      method: 'POST',
      url: '/api/v1/search',
      body: { householdId: 'h_1', category: 'SHOES', season: 'SUMMER', limit: 5 },
    });
  });

  it("is 404 for another household's item", async () => {
    const top = await createItem(app, { category: 'TOP' });
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/households/h_2/wardrobe/items/${top.itemId}/curate`,
      headers: as('usr_c'),
    });
    expect(res.statusCode).toBe(404);
  });

  it('saves outfits from itemIds (household items only) or from curation', async () => {
    const top = await createItem(app, { category: 'TOP', colors: ['white'], season: ['SUMMER'] });
    const skirt = await createItem(app, { category: 'BOTTOM', colors: ['black'], season: ['SUMMER'] });
    const manual = await app.inject({
      method: 'POST',
      url: `${W}/outfits`,
      headers,
      payload: { name: 'Office', itemIds: [top.itemId, skirt.itemId] },
    });
    expect(manual.statusCode).toBe(201);
    expect(manual.json()).toMatchObject({
      name: 'Office',
      itemIds: [top.itemId, skirt.itemId],
      source: 'MANUAL',
      createdBy: 'usr_a',
    });
    expect(manual.json().outfitId).toMatch(/^out_/);

    const foreign = await createItem(app, { category: 'SHOES' }, 'h_2', 'usr_c');
    const bad = await app.inject({
      method: 'POST',
      url: `${W}/outfits`,
      headers,
      payload: { itemIds: [top.itemId, foreign.itemId] },
    });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toEqual({ error: 'NOT_FOUND', message: `Item ${foreign.itemId} not found` });

    const curated = await app.inject({
      method: 'POST',
      url: `${W}/outfits`,
      headers,
      payload: { anchorItemId: top.itemId },
    });
    expect(curated.statusCode).toBe(201);
    expect(curated.json()).toMatchObject({ source: 'CURATED', offerIds: ['off_1'] });
    expect(curated.json().itemIds[0]).toBe(top.itemId);
    expect(curated.json().why.length).toBeGreaterThan(1);

    const outfitUrl = `${W}/outfits/${manual.json().outfitId}`;
    expect((await app.inject({ method: 'GET', url: outfitUrl, headers })).json()).toEqual(manual.json());
    const hidden = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_2/wardrobe/outfits/${manual.json().outfitId}`,
      headers: as('usr_c'),
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'NOT_FOUND', message: 'Outfit not found' });
    expect((await app.inject({ method: 'GET', url: `${W}/outfits`, headers })).json().items).toHaveLength(2);
    expect((await app.inject({ method: 'DELETE', url: outfitUrl, headers })).statusCode).toBe(204);
  });
});

describe('curation with commerce down', () => {
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp({ offers: null });
  });
  afterAll(() => app.stop());

  it('still curates from the wardrobe and says offers were unavailable', async () => {
    const top = await createItem(app, { category: 'TOP', colors: ['blue'] });
    await createItem(app, { category: 'BOTTOM', colors: ['grey'] });
    await addImage(app, top.itemId);
    const res = await app.inject({ method: 'POST', url: `${W}/items/${top.itemId}/curate`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      offers: 'UNAVAILABLE',
      notes: [
        'Offers could not be loaded (commerce unavailable); looks use the wardrobe only',
        'Nothing in the wardrobe or the offers completes the look with SHOES',
      ],
    });
    expect(res.json().looks).toHaveLength(1);
  });
});

describe('curation disabled', () => {
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp({ env: { CURATION_BACKEND: 'disabled' } });
  });
  afterAll(() => app.stop());

  it('answers 503 on curate and on POST /outfits without itemIds, but saves explicit outfits', async () => {
    const top = await createItem(app, { category: 'TOP' });
    await addImage(app, top.itemId);
    const unavailable = {
      error: 'SERVICE_UNAVAILABLE',
      message: 'Curation is not enabled in this environment',
    };
    const curate = await app.inject({ method: 'POST', url: `${W}/items/${top.itemId}/curate`, headers });
    expect(curate.statusCode).toBe(503);
    expect(curate.json()).toEqual(unavailable);
    const outfit = await app.inject({ method: 'POST', url: `${W}/outfits`, headers, payload: {} });
    expect(outfit.statusCode).toBe(503);
    expect(outfit.json()).toEqual(unavailable);
    const manual = await app.inject({
      method: 'POST',
      url: `${W}/outfits`,
      headers,
      payload: { itemIds: [top.itemId] },
    });
    expect(manual.statusCode).toBe(201);
  });
});
