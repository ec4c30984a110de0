import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceApp, headers, offer } from './helpers.ts';

// The same cases on the in-memory store and on sqlite, whose indexed query plans serve search at scale.
const dir = mkdtempSync(join(tmpdir(), 'commerce-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const backends: [string, () => Store][] = [
  ['inmemory', () => createStore({ backend: 'inmemory' })],
  ['sqlite', () => createStore({ backend: 'sqlite', file: join(dir, 'commerce.sqlite') })],
];

describe.each(backends)('offer search (%s)', (_name, makeStore) => {
  let app: Awaited<ReturnType<typeof commerceApp>>;
  const H = 'h_search';
  beforeAll(async () => {
    app = await commerceApp({}, makeStore());
    const offers = [
      offer({
        title: 'Linen summer shirt',
        brand: 'Acme',
        price: 40,
        season: ['SUMMER'],
        colors: ['White'],
        sizes: ['M'],
      }),
      offer({
        title: 'Wool winter coat',
        brand: 'Nordic',
        price: 180,
        category: 'OUTERWEAR',
        season: ['WINTER'],
        colors: ['navy'],
        sizes: ['L'],
      }),
      offer({
        title: 'Denim jeans',
        brand: 'Acme',
        price: 60,
        category: 'BOTTOM',
        season: [],
        colors: ['blue'],
        sizes: ['32'],
      }),
      offer({
        title: 'Summer linen dress',
        brand: 'Flora',
        price: 75,
        category: 'DRESS',
        season: ['SUMMER', 'SPRING'],
        colors: ['red'],
        sizes: ['S', 'm'],
      }),
      offer({
        title: 'Canvas sneakers',
        brand: 'Acme',
        price: 55,
        category: 'SHOES',
        season: ['SUMMER'],
        colors: ['white'],
        sizes: ['42'],
        currency: 'USD',
      }),
    ];
    await app.inject({
      method: 'POST',
      url: `/api/v1/households/${H}/offers/bulk`,
      headers,
      payload: { offers },
    });
    await app.inject({ method: 'POST', url: '/api/v1/households/h_other/offers', headers, payload: offer() });
    const inactive = await app.inject({
      method: 'POST',
      url: `/api/v1/households/${H}/offers`,
      headers,
      payload: offer({ title: 'Old summer shirt', price: 5 }),
    });
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/${H}/offers/${inactive.json().offerId}/status`,
      headers,
      payload: { status: 'INACTIVE' },
    });
  });
  afterAll(async () => {
    await app.close();
    await app.store.close();
  });

  const search = async (constraints: Record<string, unknown>) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/search',
      headers: { 'x-internal-token': headers['x-internal-token'] },
      payload: { householdId: H, ...constraints },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { items: { title: string; price: number }[]; nextCursor: string | null };
  };
  const titles = (page: { items: { title: string }[] }) => page.items.map((o) => o.title);

  describe('constraints', () => {
    it("returns the household's active offers by price, never another household's", async () => {
      expect(titles(await search({}))).toEqual([
        'Linen summer shirt',
        'Canvas sneakers',
        'Denim jeans',
        'Summer linen dress',
        'Wool winter coat',
      ]);
    });

    it('filters by words of title and brand (all words), any case', async () => {
      expect(titles(await search({ query: 'LINEN summer' }))).toEqual([
        'Linen summer shirt',
        'Summer linen dress',
      ]);
      expect(titles(await search({ query: 'acme' }))).toEqual([
        'Linen summer shirt',
        'Canvas sneakers',
        'Denim jeans',
      ]);
      expect(titles(await search({ query: 'acme jeans' }))).toEqual(['Denim jeans']);
    });

    it('filters by price range, season (no season means any), category, colours, size and currency', async () => {
      expect(titles(await search({ minPrice: 50, maxPrice: 75 }))).toEqual([
        'Canvas sneakers',
        'Denim jeans',
        'Summer linen dress',
      ]);
      expect(titles(await search({ season: 'WINTER' }))).toEqual(['Denim jeans', 'Wool winter coat']);
      expect(titles(await search({ season: 'SUMMER', maxPrice: 60 }))).toEqual([
        'Linen summer shirt',
        'Canvas sneakers',
        'Denim jeans',
      ]);
      expect(titles(await search({ category: 'DRESS' }))).toEqual(['Summer linen dress']);
      expect(titles(await search({ colors: ['WHITE', 'red'] }))).toEqual([
        'Linen summer shirt',
        'Canvas sneakers',
        'Summer linen dress',
      ]);
      expect(titles(await search({ size: 'm' }))).toEqual(['Linen summer shirt', 'Summer linen dress']);
      expect(titles(await search({ currency: 'usd' }))).toEqual(['Canvas sneakers']);
      expect(titles(await search({ query: 'summer', season: 'SPRING', size: 'S' }))).toEqual([
        'Summer linen dress',
      ]);
    });

    it('matches query words singular or plural, sizes across spellings, and leaves out exclusions', async () => {
      expect(titles(await search({ query: 'sneaker' }))).toEqual(['Canvas sneakers']);
      expect(titles(await search({ query: 'coats' }))).toEqual(['Wool winter coat']);
      expect(titles(await search({ query: 'dresses' }))).toEqual(['Summer linen dress']);
      // The sneakers are listed as "42" (no system): "EU 42" finds them; "medium" is "M".
      expect(titles(await search({ size: 'EU 42' }))).toEqual(['Canvas sneakers']);
      expect(titles(await search({ size: 'US 41' }))).toEqual([]);
      expect(titles(await search({ size: 'medium' }))).toEqual(['Linen summer shirt', 'Summer linen dress']);
      expect(titles(await search({ season: 'SUMMER', excludeColors: ['white'] }))).toEqual([
        'Denim jeans',
        'Summer linen dress',
      ]);
      expect(titles(await search({ excludeBrands: ['ACME'] }))).toEqual([
        'Summer linen dress',
        'Wool winter coat',
      ]);
      expect(titles(await search({ query: 'summer', excludeWords: ['dresses'] }))).toEqual([
        'Linen summer shirt',
      ]);
    });

    it('finds "EU 42" and a bare "42", never another system\'s 42, whatever else is asked', async () => {
      const sizes = await app.inject({
        method: 'POST',
        url: '/api/v1/households/h_sizes/offers/bulk',
        headers,
        payload: {
          offers: [
            offer({ title: 'EU boots', sizes: ['EU 42'], category: 'SHOES', price: 10 }),
            offer({ title: 'US boots', sizes: ['US 42'], category: 'SHOES', price: 20 }),
            offer({ title: 'Bare boots', sizes: ['42'], category: 'SHOES', price: 30 }),
          ],
        },
      });
      expect(sizes.statusCode).toBe(201);
      for (const extra of [
        {},
        { category: 'SHOES' },
        { query: 'boots' },
        { colors: ['red', 'white', 'blue'] },
      ]) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/search',
          headers: { 'x-internal-token': headers['x-internal-token'] },
          payload: { householdId: 'h_sizes', size: 'EU 42', ...extra },
        });
        expect(titles(res.json()), JSON.stringify(extra)).toEqual(['EU boots', 'Bare boots']);
      }
    });

    it("finds a baby's size however the merchant labels it", async () => {
      const added = await app.inject({
        method: 'POST',
        url: '/api/v1/households/h_baby/offers/bulk',
        headers,
        payload: {
          offers: [
            offer({ title: 'Romper bands', sizes: ['6-9 months', '9-12 months'], price: 10 }),
            offer({ title: 'Romper short', sizes: ['6-9m'], price: 11 }),
            offer({ title: 'Romper newborn', sizes: ['NB', '0-3 months'], price: 12 }),
            offer({ title: 'Kids tee', sizes: ['6Y'], price: 13 }),
          ],
        },
      });
      expect(added.statusCode).toBe(201);
      const find = async (size: string) =>
        titles(
          (
            await app.inject({
              method: 'POST',
              url: '/api/v1/search',
              headers: { 'x-internal-token': headers['x-internal-token'] },
              payload: { householdId: 'h_baby', size },
            })
          ).json(),
        );
      expect(await find('6-9M')).toEqual(['Romper bands', 'Romper short']);
      expect(await find('NEWBORN')).toEqual(['Romper newborn']);
      expect(await find('0-3M')).toEqual(['Romper newborn']);
      expect(await find('KIDS 6')).toEqual(['Kids tee']);
    });

    it('pages with a cursor, also when some constraints are checked after the query', async () => {
      for (const constraints of [{}, { query: 'acme', colors: 'white,blue' }]) {
        const all = titles(await search(constraints));
        const seen: string[] = [];
        let cursor: string | null | undefined;
        do {
          const page = await search({ ...constraints, limit: 2, ...(cursor ? { cursor } : {}) });
          expect(page.items.length).toBeLessThanOrEqual(2);
          seen.push(...titles(page));
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen).toEqual(all);
      }
    });

    it('refuses a cursor sent back with other filters (it would skip cheaper matches), not with the same ones reordered', async () => {
      const first = await search({ colors: 'white,blue', limit: 1 });
      expect(first.nextCursor).not.toBeNull();
      const reordered = await search({ colors: 'blue,white', limit: 1, cursor: first.nextCursor });
      expect(reordered.items).toHaveLength(1);
      const other = await app.inject({
        method: 'POST',
        url: '/api/v1/search',
        headers: { 'x-internal-token': headers['x-internal-token'] },
        payload: { householdId: H, colors: 'white', limit: 1, cursor: first.nextCursor },
      });
      expect(other.statusCode).toBe(400);
      expect(other.json()).toEqual({
        error: 'BAD_REQUEST',
        message: 'This cursor belongs to other filters: start again without it when a filter changes',
      });
    });

    it('serves GET /offers with query parameters and a status filter', async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/households/${H}/offers?query=shirt&colors=white&maxPrice=100&status=INACTIVE`,
        headers,
      });
      expect(res.statusCode).toBe(200);
      expect(titles(res.json())).toEqual(['Old summer shirt']);
      const active = await app.inject({
        method: 'GET',
        url: `/api/v1/households/${H}/offers?query=shirt`,
        headers,
      });
      expect(titles(active.json())).toEqual(['Linen summer shirt']);
    });

    it('finds an offer with a long title in twenty colours for every season by any of its words', async () => {
      // Its index rows would not fit one page each (sqlite) and its (colour, season, word) entries
      // number thousands (memory): both stores keep them small and still find it.
      const wordy = `${Array.from({ length: 24 }, (_, i) => `word${i}`).join(' ')} patterned scarf`;
      const colors = Array.from({ length: 20 }, (_, i) => `shade${i}`);
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/households/h_wordy/offers/bulk',
        headers,
        payload: {
          offers: [
            offer({
              title: wordy,
              category: 'ACCESSORY',
              colors,
              season: [],
              sizes: ['S', 'M', 'L'],
              price: 20,
            }),
            offer({
              title: 'Plain scarf',
              category: 'ACCESSORY',
              colors: ['shade3'],
              season: ['FALL'],
              price: 10,
            }),
          ],
        },
      });
      expect(created.statusCode).toBe(201);
      const find = async (constraints: Record<string, unknown>) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/search',
          headers,
          payload: { householdId: 'h_wordy', category: 'ACCESSORY', ...constraints },
        });
        expect(res.statusCode).toBe(200);
        return res.json().items.map((o: { title: string }) => o.title);
      };
      expect(await find({ query: 'word17', colors: ['shade7'], season: 'WINTER', maxPrice: 50 })).toEqual([
        wordy,
      ]);
      expect(await find({ query: 'scarf', colors: ['shade3'], season: 'FALL' })).toEqual([
        'Plain scarf',
        wordy,
      ]);
      expect(await find({ query: 'plain', colors: ['shade3'], season: 'FALL' })).toEqual(['Plain scarf']);
      expect(await find({ query: 'word3', colors: ['shade20'], season: 'FALL' })).toEqual([]);
    });

    it('answers 400 for a bad cursor and 422 for bad constraints', async () => {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/v1/search',
        headers,
        payload: { householdId: H, cursor: 'garbage' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'BAD_REQUEST', message: 'Invalid cursor' });
      const invalid = await app.inject({
        method: 'POST',
        url: '/api/v1/search',
        headers,
        payload: { householdId: H, season: 'MONSOON' },
      });
      expect(invalid.statusCode).toBe(422);
      const noHousehold = await app.inject({ method: 'POST', url: '/api/v1/search', headers, payload: {} });
      expect(noHousehold.statusCode).toBe(422);
    });
  });
});
