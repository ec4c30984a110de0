import { beforeEach, describe, expect, it } from 'vitest';
import type { Collection, CollectionOptions, Doc, Query, Store, Where } from '../src/index.ts';

interface Product extends Doc {
  hh: string;
  name: string;
  price: number;
  inStock: boolean;
  season: string[];
  colors?: string[];
  rating?: number | null;
  mixed: unknown;
  meta?: { city: string };
  /** The document's own id, so assertions can name results (ids live outside documents). */
  pid?: string;
}

// `season` is a declared array field (sqlite side table); `colors` is not (json_each fallback).
export const PRODUCT_OPTIONS: CollectionOptions = {
  indexes: [{ fields: ['hh', 'season', 'price'] }, { fields: ['hh', 'price'] }, { fields: ['name'] }],
  arrayFields: ['season'],
};

const city = (name: string) => ({ meta: { city: name } });
// biome-ignore format: one product per line reads as a table
const PRODUCTS: Array<[string, Product]> = [
  ['p01', { hh: 'h1', name: 'apple', price: 5, inStock: true, season: ['SUMMER', 'FALL'], colors: ['red'], rating: 4, mixed: 10, ...city('Oslo') }],
  ['p02', { hh: 'h1', name: 'banana', price: 12.5, inStock: false, season: ['SUMMER'], colors: ['yellow'], rating: null, mixed: 'ten', ...city('Bergen') }],
  ['p03', { hh: 'h1', name: 'cherry', price: 5, inStock: true, season: ['SPRING'], colors: ['red', 'dark'], mixed: 3, ...city('Oslo') }],
  ['p04', { hh: 'h2', name: 'date', price: 30, inStock: true, season: ['WINTER'], colors: [], rating: 2, mixed: '3' }],
  ['p05', { hh: 'h1', name: 'elder', price: 0, inStock: false, season: [], colors: ['green'], rating: 5, mixed: true, ...city('Oslo') }],
  ['p06', { hh: 'h2', name: 'fig', price: -2, inStock: true, season: ['SUMMER', 'WINTER'], colors: ['purple'], rating: 1, mixed: null, ...city('Trondheim') }],
  ['p07', { hh: 'h1', name: 'grape', price: 12.5, inStock: true, season: ['FALL'], colors: ['green', 'red'], rating: 3, mixed: 7.5, ...city('Bergen') }],
  ['p08', { hh: 'h1', name: 'apple', price: 50, inStock: false, season: ['SUMMER'], rating: 4, mixed: 'abc', ...city('Oslo') }],
  ['p09', { hh: 'h2', name: 'kiwi', price: 51, inStock: true, season: ['SUMMER'], colors: ['green'], rating: null, mixed: [1], ...city('Oslo') }],
  ['p10', { hh: 'h1', name: 'lemon', price: 49.99, inStock: true, season: ['SUMMER', 'SPRING'], colors: ['yellow'], rating: 2, mixed: { a: 1 }, ...city('Bergen') }],
];

const W = (...where: Where[]): Query => ({ where });

/** [description, query, expected ids in result order]. Result order = effective order, then id. */
const CASES: Array<[string, Query, string[]]> = [
  ['== string', W(['hh', '==', 'h1']), ['p01', 'p02', 'p03', 'p05', 'p07', 'p08', 'p10']],
  ['== number', W(['price', '==', 12.5]), ['p02', 'p07']],
  ['== number never matches a string or boolean', W(['mixed', '==', 3]), ['p03']],
  ['== 1 does not match true', W(['mixed', '==', 1]), []],
  ['== boolean', W(['inStock', '==', false]), ['p02', 'p05', 'p08']],
  ['== true is not 1', W(['mixed', '==', true]), ['p05']],
  ['== null matches explicit null only', W(['rating', '==', null]), ['p02', 'p09']],
  ['== nested path', W(['meta.city', '==', 'Oslo']), ['p01', 'p03', 'p05', 'p08', 'p09']],
  [
    '!= null: present and non-null, ordered by the field',
    W(['rating', '!=', null]),
    ['p06', 'p04', 'p10', 'p07', 'p01', 'p08', 'p05'],
  ],
  ['!= value skips null and missing', W(['rating', '!=', 4]), ['p06', 'p04', 'p10', 'p07', 'p05']],
  ['<', W(['price', '<', 12.5]), ['p06', 'p05', 'p01', 'p03']],
  ['<=', W(['price', '<=', 12.5]), ['p06', 'p05', 'p01', 'p03', 'p02', 'p07']],
  ['>', W(['price', '>', 49.99]), ['p08', 'p09']],
  ['>=', W(['price', '>=', 49.99]), ['p10', 'p08', 'p09']],
  ['number range skips other types', W(['mixed', '>', 5]), ['p07', 'p01']],
  ['string range skips other types', W(['mixed', '<', 'b']), ['p04', 'p08']],
  ['string lower bound', W(['mixed', '>=', 'b']), ['p02']],
  ['two-sided string range', W(['name', '>=', 'd'], ['name', '<', 'g']), ['p04', 'p05', 'p06']],
  ['in strings', W(['name', 'in', ['apple', 'kiwi', 'nope']]), ['p01', 'p08', 'p09']],
  ['in numbers', W(['price', 'in', [5, 51]]), ['p01', 'p03', 'p09']],
  ['in is type-exact', W(['mixed', 'in', [3, '3']]), ['p03', 'p04']],
  ['in strings never match a number or boolean', W(['mixed', 'in', ['10', '1', 'true']]), []],
  ["== a string never matches an array's or object's JSON text", W(['mixed', '==', '[1]']), []],
  ["in strings never match an object's JSON text", W(['mixed', 'in', ['{"a":1}', 'abc']]), ['p08']],
  ['in never matches null', W(['rating', 'in', [null, 1]]), ['p06']],
  [
    'array-contains (declared)',
    W(['season', 'array-contains', 'SUMMER']),
    ['p01', 'p02', 'p06', 'p08', 'p09', 'p10'],
  ],
  ['array-contains (undeclared)', W(['colors', 'array-contains', 'red']), ['p01', 'p03', 'p07']],
  [
    'array-contains-any (declared)',
    W(['season', 'array-contains-any', ['SPRING', 'WINTER']]),
    ['p03', 'p04', 'p06', 'p10'],
  ],
  [
    'array-contains-any (undeclared)',
    W(['colors', 'array-contains-any', ['yellow', 'purple']]),
    ['p02', 'p06', 'p10'],
  ],
  ['array-contains on a scalar field', W(['name', 'array-contains', 'apple']), []],
  [
    'equality + array-contains + range, ordered',
    {
      where: [
        ['hh', '==', 'h1'],
        ['season', 'array-contains', 'SUMMER'],
        ['price', '<=', 50],
      ],
      orderBy: [{ field: 'price' }],
    },
    ['p01', 'p02', 'p10', 'p08'],
  ],
  [
    'equality + array-contains + range, descending',
    {
      where: [
        ['hh', '==', 'h1'],
        ['season', 'array-contains', 'SUMMER'],
        ['price', '<=', 50],
      ],
      orderBy: [{ field: 'price', direction: 'desc' }],
    },
    ['p08', 'p10', 'p02', 'p01'],
  ],
  [
    'orderBy number asc',
    { orderBy: [{ field: 'price' }] },
    ['p06', 'p05', 'p01', 'p03', 'p02', 'p07', 'p04', 'p10', 'p08', 'p09'],
  ],
  [
    'orderBy number desc, ties by id asc',
    { orderBy: [{ field: 'price', direction: 'desc' }] },
    ['p09', 'p08', 'p10', 'p04', 'p02', 'p07', 'p01', 'p03', 'p05', 'p06'],
  ],
  [
    'orderBy string asc',
    { orderBy: [{ field: 'name' }] },
    ['p01', 'p08', 'p02', 'p03', 'p04', 'p05', 'p06', 'p07', 'p09', 'p10'],
  ],
  [
    'orderBy string desc, ties by id asc',
    { orderBy: [{ field: 'name', direction: 'desc' }] },
    ['p10', 'p09', 'p07', 'p06', 'p05', 'p04', 'p03', 'p02', 'p01', 'p08'],
  ],
  [
    'orderBy drops missing fields, nulls first',
    { orderBy: [{ field: 'rating' }] },
    ['p02', 'p09', 'p06', 'p04', 'p10', 'p07', 'p01', 'p08', 'p05'],
  ],
  [
    'orderBy two fields',
    { orderBy: [{ field: 'hh' }, { field: 'price', direction: 'desc' }] },
    ['p08', 'p10', 'p02', 'p07', 'p01', 'p03', 'p05', 'p09', 'p04', 'p06'],
  ],
];

const PAGED: Array<[string, Query]> = [
  ['no order', {}],
  ['price desc', { orderBy: [{ field: 'price', direction: 'desc' }] }],
  ['names with ties', { orderBy: [{ field: 'name' }] }],
  ['nulls in the cursor', { orderBy: [{ field: 'rating' }] }],
  [
    'filtered',
    { where: [['season', 'array-contains', 'SUMMER']], orderBy: [{ field: 'name', direction: 'desc' }] },
  ],
  ['range, implicit order', { where: [['price', '>', 0]] }],
  ['two fields', { orderBy: [{ field: 'hh', direction: 'desc' }, { field: 'price' }] }],
  // Descending pages resume at the cursor (sqlite: a seek that leaves the nulls, last, to a second read).
  ['nulls last, descending', { orderBy: [{ field: 'rating', direction: 'desc' }] }],
  ['every type, descending', { orderBy: [{ field: 'mixed', direction: 'desc' }] }],
  [
    'one household by price, descending (a declared index)',
    { where: [['hh', '==', 'h1']], orderBy: [{ field: 'price', direction: 'desc' }] },
  ],
  [
    'below a bound, descending',
    {
      where: [
        ['hh', '==', 'h1'],
        ['price', '<', 50],
      ],
      orderBy: [{ field: 'price', direction: 'desc' }],
    },
  ],
];

export function queryContract(getStore: () => Store): void {
  describe('queries', () => {
    let c: Collection<Product>;
    const idOf = (p: Product) => String(p.pid);
    beforeEach(async () => {
      c = getStore().collection<Product>('products', PRODUCT_OPTIONS);
      await c.createMany(PRODUCTS.map(([id, doc]) => [id, { ...doc, pid: id }]));
    });

    it.each(CASES)('%s', async (_label, query, expected) => {
      const page = await c.query(query);
      expect(page.items.map(idOf)).toEqual(expected);
      expect(page.nextCursor).toBeNull();
      // Ordering drops rows missing the order field; count only looks at filters.
      if (!query.orderBy) expect(await c.count(query.where)).toBe(expected.length);
    });

    it.each(PAGED)('pages with limit + cursor cover every row once: %s', async (_label, query) => {
      const all = (await c.query(query)).items.map(idOf);
      for (const limit of [2, 3]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await c.query({ ...query, limit, cursor });
          seen.push(...page.items.map(idOf));
          cursor = page.nextCursor;
          pages++;
          if (cursor) expect(page.items).toHaveLength(limit);
        } while (cursor && pages <= all.length);
        expect(seen).toEqual(all);
        expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
      }
    });

    it('a cursor stays valid while rows change', async () => {
      const query: Query = { orderBy: [{ field: 'price' }], limit: 4 };
      const first = await c.query(query);
      expect(first.items.map(idOf)).toEqual(['p06', 'p05', 'p01', 'p03']);
      await c.delete('p01');
      await c.delete('p02');
      await c.put('p11', { ...PRODUCTS[0]![1], price: 1, pid: 'p11' });
      await c.put('p12', { ...PRODUCTS[0]![1], price: 12.5, pid: 'p12' });
      const second = await c.query({ ...query, cursor: first.nextCursor });
      expect(second.items.map(idOf)).toEqual(['p07', 'p12', 'p04', 'p10']);
    });

    it("refuses another list's cursor (another household's, another filter value's); a range may move", async () => {
      const ofH1: Query = { where: [['hh', '==', 'h1']], orderBy: [{ field: 'price' }], limit: 2 };
      const cursor = (await c.query(ofH1)).nextCursor;
      expect(cursor).not.toBeNull();
      expect((await c.query({ ...ofH1, cursor })).items).toHaveLength(2);
      await expect(c.query({ ...ofH1, where: [['hh', '==', 'h2']], cursor })).rejects.toThrow(
        'Cursor does not belong to this query',
      );
      // A cursor issued before the digest existed still pages (a client paging across an upgrade).
      const [values, id] = JSON.parse(Buffer.from(cursor!, 'base64url').toString('utf8'));
      const legacy = Buffer.from(JSON.stringify([values, id])).toString('base64url');
      expect((await c.query({ ...ofH1, cursor: legacy })).items).toEqual(
        (await c.query({ ...ofH1, cursor })).items,
      );
      // The same filters in another order page on.
      const both: Query = {
        where: [
          ['hh', '==', 'h1'],
          ['inStock', '==', true],
        ],
        orderBy: [{ field: 'price' }],
        limit: 1,
      };
      const next = (await c.query(both)).nextCursor;
      const swapped = { ...both, where: [...both.where!].reverse(), cursor: next };
      expect((await c.query(swapped)).items).toEqual((await c.query({ ...both, cursor: next })).items);
      // A bound that moves between pages (a clock) keeps the cursor valid.
      const bounded: Query = { ...ofH1, where: [...ofH1.where!, ['price', '<', 1000]] };
      const page = await c.query(bounded);
      const moved = { ...bounded, where: [...ofH1.where!, ['price', '<', 999]] as Query['where'] };
      expect((await c.query({ ...moved, cursor: page.nextCursor })).items).toHaveLength(2);
    });

    it('pages with offset', async () => {
      const byPrice: Query = { orderBy: [{ field: 'price' }] };
      expect((await c.query({ ...byPrice, offset: 3, limit: 4 })).items.map(idOf)).toEqual([
        'p03',
        'p02',
        'p07',
        'p04',
      ]);
      expect((await c.query({ ...byPrice, offset: 8 })).items.map(idOf)).toEqual(['p08', 'p09']);
      expect((await c.query({ ...byPrice, offset: 20, limit: 5 })).items).toEqual([]);
    });

    it('counts', async () => {
      expect(await c.count()).toBe(10);
      expect(await c.count([['hh', '==', 'h1']])).toBe(7);
      expect(
        await c.count([
          ['season', 'array-contains', 'SUMMER'],
          ['price', '<', 50],
        ]),
      ).toBe(4);
    });

    it('array membership follows put, update and delete', async () => {
      const summer = async () => (await c.query(W(['season', 'array-contains', 'SUMMER']))).items.map(idOf);
      await c.put('p01', { ...PRODUCTS[0]![1], season: ['WINTER'], pid: 'p01' });
      await c.delete('p02');
      await c.update('p05', (cur) => (cur ? { ...cur, season: ['SUMMER', 'SUMMER'] } : null));
      await c.update('p06', () => null);
      expect(await summer()).toEqual(['p05', 'p08', 'p09', 'p10']);
      expect(await c.count([['season', 'array-contains-any', ['WINTER', 'FALL']]])).toBe(3);
    });
  });
}
