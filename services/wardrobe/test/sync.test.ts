import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
beforeAll(async () => {
  app = await wardrobeApp();
});
afterAll(() => app.stop());

const ITEMS = '/api/v1/households/h_1/wardrobe/items';
const get = (url: string, extra: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { ...headers, ...extra } });

describe('offline-tolerant browsing', () => {
  it('answers If-None-Match with 304 on items, one item and the feed until something changes', async () => {
    const item = await createItem(app, { brand: 'Acme' });
    for (const url of [
      ITEMS,
      `${ITEMS}/${item.itemId}`,
      '/api/v1/households/h_1/wardrobe/feed?source=WARDROBE',
    ]) {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"/);
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
    const before = (await get(ITEMS)).headers.etag as string;
    await app.inject({
      method: 'PATCH',
      url: `${ITEMS}/${item.itemId}`,
      headers,
      payload: { brand: 'Other' },
    });
    const after = await get(ITEMS, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('refuses a write based on a stale copy with 412 and applies one based on the current copy', async () => {
    const item = await createItem(app, { brand: 'Acme' });
    const url = `${ITEMS}/${item.itemId}`;
    const etag = (await get(url)).headers.etag as string;
    const first = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...headers, 'if-match': etag },
      payload: { brand: 'B' },
    });
    expect(first.statusCode).toBe(200);
    const stale = await app.inject({
      method: 'PATCH',
      url,
      headers: { ...headers, 'if-match': etag },
      payload: { brand: 'C' },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({
      error: 'PRECONDITION_FAILED',
      message: 'The resource changed since it was read',
    });
    const staleDelete = await app.inject({
      method: 'DELETE',
      url,
      headers: { ...headers, 'if-match': etag },
    });
    expect(staleDelete.statusCode).toBe(412);
    expect((await get(url)).json().brand).toBe('B');
    const current = first.headers.etag as string;
    expect(
      (await app.inject({ method: 'DELETE', url, headers: { ...headers, 'if-match': current } })).statusCode,
    ).toBe(204);
  });

  it('syncs with updatedSince: changed items and deleted ids (tombstones), then nothing new', async () => {
    const h = '/api/v1/households/h_2/wardrobe/items';
    const c = { ...headers, 'x-user-id': 'usr_c' };
    const keep = await createItem(app, {}, 'h_2', 'usr_c');
    const gone = await createItem(app, {}, 'h_2', 'usr_c');
    const full = (await app.inject({ method: 'GET', url: h, headers: c })).json();
    expect(full.items).toHaveLength(2);
    expect(full.deletedItemIds).toEqual([]);
    const since = full.syncedAt;
    await new Promise((r) => setTimeout(r, 5));
    await app.inject({ method: 'PATCH', url: `${h}/${keep.itemId}`, headers: c, payload: { brand: 'New' } });
    await app.inject({ method: 'DELETE', url: `${h}/${gone.itemId}`, headers: c });
    const added = await createItem(app, {}, 'h_2', 'usr_c');
    const delta = (
      await app.inject({ method: 'GET', url: `${h}?updatedSince=${encodeURIComponent(since)}`, headers: c })
    ).json();
    expect(delta.items.map((i: { itemId: string }) => i.itemId).sort()).toEqual(
      [keep.itemId, added.itemId].sort(),
    );
    expect(delta.deletedItemIds).toEqual([gone.itemId]);
    expect(delta.syncedAt > since).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    const later = new Date(Date.now()).toISOString();
    const none = (
      await app.inject({ method: 'GET', url: `${h}?updatedSince=${encodeURIComponent(later)}`, headers: c })
    ).json();
    expect(none).toEqual({ items: [], nextCursor: null, deletedItemIds: [], syncedAt: later });
    // Tombstones belong to their household.
    const other = (
      await app.inject({ method: 'GET', url: `${ITEMS}?updatedSince=${encodeURIComponent(since)}`, headers })
    ).json();
    expect(other.deletedItemIds).not.toContain(gone.itemId);
  });

  it('accepts an updatedSince with an offset and refuses one that is not a timestamp (422)', async () => {
    expect(
      (await get(`${ITEMS}?updatedSince=${encodeURIComponent('2020-01-01T02:00:00+02:00')}`)).statusCode,
    ).toBe(200);
    const bad = await get(`${ITEMS}?updatedSince=yesterday`);
    expect(bad.statusCode).toBe(422);
  });
});
