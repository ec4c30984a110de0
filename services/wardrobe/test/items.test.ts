import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
beforeAll(async () => {
  app = await wardrobeApp();
});
afterAll(() => app.stop());

const ITEMS = '/api/v1/households/h_1/wardrobe/items';

describe('wardrobe items', () => {
  it('creates an item with defaults; the owner defaults to the caller', async () => {
    const res = await app.inject({ method: 'POST', url: ITEMS, headers, payload: { category: 'TOP' } });
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({
      householdId: 'h_1',
      ownerMemberId: 'usr_a',
      category: 'TOP',
      brand: '',
      colors: [],
      season: [],
      occasion: [],
      tags: [],
      images: [],
    });
    expect(item.itemId).toMatch(/^item_/);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('accepts another member as owner (asking the gateway) and refuses a non-member with 400', async () => {
    const ok = await app.inject({
      method: 'POST',
      url: ITEMS,
      headers,
      payload: { category: 'SHOES', ownerMemberId: 'usr_b' },
    });
    expect(ok.statusCode).toBe(201);
    expect(app.gateway.calls.at(-1)).toMatchObject({
      method: 'GET',
      url: '/api/v1/internal/households/h_1/members',
    });
    const bad = await app.inject({
      method: 'POST',
      url: ITEMS,
      headers,
      payload: { category: 'SHOES', ownerMemberId: 'usr_c' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'BAD_REQUEST', message: 'ownerMemberId is not a household member' });
  });

  it('requires a category from the enumeration (422 VALIDATION_ERROR)', async () => {
    const missing = await app.inject({ method: 'POST', url: ITEMS, headers, payload: { brand: 'x' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ loc: ['body', 'category'] }],
    });
    const wrong = await app.inject({
      method: 'POST',
      url: ITEMS,
      headers,
      payload: { category: 'HAT', season: ['MONSOON'] },
    });
    expect(wrong.statusCode).toBe(422);
  });

  it('refuses hidden characters in what other members see (brand, labels) with 422, and creates nothing', async () => {
    for (const payload of [
      { category: 'TOP', brand: 'Acme\u202e\u0000' },
      { category: 'TOP', tags: ['school\u{e0069}\u{e0067}'] },
      { category: 'TOP', colors: ['navy\u200b'] },
    ]) {
      const res = await app.inject({ method: 'POST', url: ITEMS, headers, payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().details[0].msg).toBe(
        'Must not contain control characters, invisible characters or text-direction marks',
      );
    }
    const listed = await app.inject({ method: 'GET', url: `${ITEMS}?limit=100`, headers });
    expect(JSON.stringify(listed.json())).not.toMatch(/Acme|school/);
    // What families write stays: emoji, accents, right-to-left text.
    const kept = await app.inject({
      method: 'POST',
      url: ITEMS,
      headers,
      payload: { category: 'TOP', brand: 'Zoë ❤️ שלום', tags: ['👨‍👩‍👧'] },
    });
    expect(kept.statusCode).toBe(201);
  });

  it('lists with filters and pages', async () => {
    const h = 'h_2';
    await createItem(app, { category: 'TOP', season: ['SUMMER'] }, h, 'usr_c');
    await createItem(app, { category: 'BOTTOM', season: ['WINTER'] }, h, 'usr_c');
    await createItem(app, { category: 'TOP', season: ['WINTER'] }, h, 'usr_c');
    const list = (q: string) =>
      app
        .inject({ method: 'GET', url: `/api/v1/households/${h}/wardrobe/items${q}`, headers: as('usr_c') })
        .then((r) => r.json());
    expect((await list('')).items).toHaveLength(3);
    expect((await list('?category=TOP')).items).toHaveLength(2);
    expect((await list('?season=WINTER&category=TOP')).items).toHaveLength(1);
    expect((await list('?ownerMemberId=usr_x')).items).toHaveLength(0);
    const first = await list('?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const bad = await app.inject({
      method: 'GET',
      url: `/api/v1/households/${h}/wardrobe/items?cursor=nope`,
      headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'BAD_REQUEST', message: 'Invalid cursor' });
  });

  it("gets, patches and deletes; another household's item is 404", async () => {
    const item = await createItem(app, { brand: 'Acme', colors: ['white'] });
    const url = `${ITEMS}/${item.itemId}`;
    expect((await app.inject({ method: 'GET', url, headers })).json()).toEqual(item);
    const patched = await app.inject({
      method: 'PATCH',
      url,
      headers,
      payload: { colors: ['navy'], season: ['FALL'] },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ brand: 'Acme', colors: ['navy'], season: ['FALL'] });
    const badOwner = await app.inject({ method: 'PATCH', url, headers, payload: { ownerMemberId: 'usr_c' } });
    expect(badOwner.json()).toEqual({
      error: 'BAD_REQUEST',
      message: 'ownerMemberId is not a household member',
    });

    const foreign = `/api/v1/households/h_2/wardrobe/items/${item.itemId}`;
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({
        method,
        url: foreign,
        headers: as('usr_c'),
        ...(method === 'PATCH' ? { payload: { brand: 'x' } } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Item not found' });
    }
    expect((await app.inject({ method: 'DELETE', url, headers })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers })).statusCode).toBe(404);
  });

  it('needs the internal token and, for writes, the caller identity', async () => {
    const noToken = await app.inject({ method: 'GET', url: ITEMS });
    expect(noToken.statusCode).toBe(403);
    const noCaller = await app.inject({
      method: 'POST',
      url: ITEMS,
      headers: { 'x-internal-token': 'test-wardrobe-token' },
      payload: { category: 'TOP' },
    });
    expect(noCaller.statusCode).toBe(401);
    // The orchestrator's list_wardrobe reads without a user.
    const internal = await app.inject({
      method: 'GET',
      url: ITEMS,
      headers: { 'x-internal-token': 'test-wardrobe-token' },
    });
    expect(internal.statusCode).toBe(200);
  });
});
