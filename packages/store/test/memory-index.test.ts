import { describe, expect, it } from 'vitest';
import { type CollectionOptions, createStore, cursorAt, type Doc, type Query } from '../src/index.ts';
import { createMemoryIndex } from '../src/memory-index.ts';
import { runOrderedQuery } from '../src/memory-query.ts';
import { normalizeQuery } from '../src/normalize-query.ts';

// The in-memory backend walks a declared index when one serves the query, and sqlite walks a walk
// table for an index over several array fields: the answers (pages, order, cursors) must be
// exactly those of the plain scan, whatever the data and the query.
const OPTIONS: CollectionOptions = {
  indexes: [
    { fields: ['h', 'status', 'price'] },
    { fields: ['h', 'status', 'tags', 'price'] },
    { fields: ['h', 'status', 'tags', 'labels', 'price'], embeddedOnly: true },
  ],
  arrayFields: ['tags', 'labels'],
};
/** A walk over one array field: a filter on the other is checked on the walked rows (sqlite: its elements column). */
const LABEL_WALK: CollectionOptions = {
  indexes: [
    { fields: ['h', 'status', 'price'] },
    { fields: ['h', 'status', 'labels', 'price'], embeddedOnly: true },
  ],
  arrayFields: ['tags', 'labels'],
};

/** An index only the memory store builds: sqlite answers the same queries from the others. */
const MEMORY_ONLY: CollectionOptions = {
  indexes: [
    { fields: ['h', 'status', 'price'] },
    { fields: ['h', 'status', 'labels', 'price'], embeddedOnly: true },
    { fields: ['h', 'status', 'labels', 'tags', 'price'], embeddedOnly: true, memoryOnly: true },
  ],
  arrayFields: ['tags', 'labels'],
};

function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function allPages(
  query: (cursor: string | null) => Promise<{ items: Doc[]; nextCursor: string | null }>,
) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page = await query(cursor);
    pages.push(page.items.map((d) => String(d.n)));
    cursor = page.nextCursor;
  } while (cursor && pages.length < 100);
  return pages;
}

const indexedStore = (backend: 'inmemory' | 'sqlite') =>
  backend === 'sqlite' ? createStore({ backend, file: ':memory:' }) : createStore({ backend });

describe.each([
  ['inmemory', 'two arrays', OPTIONS],
  ['sqlite', 'two arrays', OPTIONS],
  ['inmemory', 'one array', LABEL_WALK],
  ['sqlite', 'one array', LABEL_WALK],
  ['inmemory', 'memory only', MEMORY_ONLY],
  ['sqlite', 'memory only', MEMORY_ONLY],
] as const)('declared indexes (%s, %s)', (backend, _shape, options) => {
  it('answer exactly as the plain scan does: filters, both directions, ties, cursors, writes in between', async () => {
    const r = rng(1);
    const store = indexedStore(backend);
    // sqlite: part of the data is there before the walk table is declared (it is filled from it).
    const early = store.collection('items', { arrayFields: ['tags', 'labels'] });
    const plain = createStore({ backend: 'inmemory' }).collection('items', {
      arrayFields: ['tags', 'labels'],
    });
    const doc = (n: number): Doc => ({
      n,
      h: r() < 0.8 ? 'h1' : 'h2',
      status: r() < 0.9 ? 'ACTIVE' : 'GONE',
      // Few distinct prices: many ties, broken by id; now and then a value of another type,
      // which sorts apart and never matches a range.
      price: r() < 0.03 ? 'n/a' : r() < 0.03 ? null : Math.floor(r() * 20),
      tags: ['a', 'b', 'c'].filter(() => r() < 0.5),
      labels: ['x', 'y'].filter(() => r() < 0.5),
      colour: r() < 0.5 ? 'red' : 'blue',
    });
    // Loaded in bulk (sorted and merged into the lists) and one by one (inserted in place).
    const first = Array.from({ length: 400 }, (_, n) => [`id${n}`, doc(n)] as const);
    await early.createMany(first.slice(0, 150));
    const indexed = store.collection('items', options);
    await indexed.createMany(first.slice(150, 300));
    for (const [id, d] of first.slice(300)) await indexed.put(id, d);
    for (const [id, d] of first) await plain.put(id, d);
    // Changes after the index was built: moves, deletions.
    for (let n = 0; n < 400; n += 7) {
      const d = doc(n);
      await indexed.put(`id${n}`, d);
      await plain.put(`id${n}`, d);
    }
    for (let n = 3; n < 400; n += 11) {
      await indexed.delete(`id${n}`);
      await plain.delete(`id${n}`);
    }
    await indexed.update('id5', (d) => (d ? { ...d, price: 99 } : null));
    await plain.update('id5', (d) => (d ? { ...d, price: 99 } : null));
    const queries: Query[] = [];
    const tagFilters = [
      undefined,
      ['tags', 'array-contains', 'a'] as const,
      ['tags', 'array-contains', 'c'] as const,
      ['tags', 'array-contains-any', ['a', 'c']] as const,
      ['tags', 'array-contains-any', ['b']] as const,
    ];
    const priceFilters = [
      [],
      [['price', '<=', 7] as const],
      [['price', '<', 7] as const],
      [['price', '>=', 5] as const],
      [['price', '>', 5] as const],
      [['price', '>=', 5] as const, ['price', '<=', 12] as const],
    ];
    for (const direction of ['asc', 'desc'] as const)
      for (const tag of tagFilters)
        for (const label of [undefined, ['labels', 'array-contains-any', ['x', 'y']] as const])
          for (const prices of priceFilters)
            queries.push({
              where: [
                ['h', '==', 'h1'],
                ['status', '==', 'ACTIVE'],
                ...(tag ? [tag] : []),
                ...(label ? [label] : []),
                ...prices,
                ['colour', '==', 'red'],
              ],
              orderBy: [{ field: 'price', direction }],
            });
    for (const query of queries)
      for (const limit of [1, 7, 50]) {
        const a = await allPages((cursor) => indexed.query({ ...query, limit, cursor }));
        const b = await allPages((cursor) => plain.query({ ...query, limit, cursor }));
        expect(a, JSON.stringify({ query, limit })).toEqual(b);
        expect(a.flat().length, JSON.stringify(query)).toBeGreaterThan(0);
      }
    const offset = { ...queries[0]!, limit: 5, offset: 12 };
    expect((await indexed.query(offset)).items).toEqual((await plain.query(offset)).items);
  });
});

describe('a document listed under too many keys (memory store)', () => {
  const arrays = new Set(['tags', 'labels']);
  const query = (h: string): Query => ({
    where: [
      ['h', '==', h],
      ['tags', 'array-contains', 't1'],
      ['labels', 'array-contains', 'l1'],
    ],
    orderBy: [{ field: 'price' }],
  });
  // 30 tags x 30 labels: 900 keys of a (tags, labels) index.
  const wordy = (h: string, price: number): Doc => ({
    h,
    tags: Array.from({ length: 30 }, (_, i) => `t${i}`),
    labels: Array.from({ length: 30 }, (_, i) => `l${i}`),
    price,
  });
  const usual = (h: string, price: number): Doc => ({ h, tags: ['t1'], labels: ['l1', 'l2'], price });

  it('is left out of the lists: its scope walks elsewhere until it is gone, other scopes keep the index', () => {
    const index = createMemoryIndex({ fields: ['h', 'tags', 'labels', 'price'] }, arrays);
    index.addNew([
      ['u1', usual('h1', 3)],
      ['u2', usual('h2', 4)],
    ]);
    expect(index.candidates(normalizeQuery(query('h1')))).not.toBeNull();
    index.add('w1', wordy('h1', 5));
    index.addNew([['w2', wordy('h1', 6)]]);
    expect(index.candidates(normalizeQuery(query('h1')))).toBeNull();
    expect(index.candidates(normalizeQuery(query('h2')))).not.toBeNull();
    index.remove('w1', wordy('h1', 5));
    expect(index.candidates(normalizeQuery(query('h1')))).toBeNull();
    index.remove('w2', wordy('h1', 6));
    const walk = index.candidates(normalizeQuery(query('h1')));
    expect([...walk!.walk()].map((e) => e.id)).toEqual(['u1']);
  });

  it('is still found by every query of its scope', async () => {
    const indexed = createStore({ backend: 'inmemory' }).collection('items', {
      indexes: [{ fields: ['h', 'price'] }, { fields: ['h', 'tags', 'labels', 'price'], embeddedOnly: true }],
      arrayFields: [...arrays],
    });
    await indexed.createMany([
      ['u1', usual('h1', 3)],
      ['w1', wordy('h1', 5)],
      ['u2', usual('h1', 7)],
    ]);
    await indexed.put('w2', wordy('h1', 1));
    const page = await indexed.query({ ...query('h1'), limit: 10 });
    expect(page.items.map((d) => d.price)).toEqual([1, 3, 5, 7]);
  });
});

describe('descending pages after a cursor', () => {
  /** Values of every kind the order field holds: many ties, nulls (last walking down), numbers below strings. */
  const orderValue = (r: () => number): unknown => {
    const x = r();
    if (x < 0.15) return null;
    if (x < 0.3) return Math.floor(r() * 4);
    return `2024-01-0${Math.floor(r() * 8) + 1}`;
  };
  const queries: Query[] = [];
  const bounds = [
    [],
    [['at', '<', '2024-01-05'] as const],
    [['at', '<=', '2024-01-05'] as const],
    [['at', '<=', 2] as const],
    [['at', '>=', '2024-01-03'] as const],
    [['at', '>', 1] as const, ['at', '<', 3] as const],
    [['at', '==', null] as const],
  ];
  for (const direction of ['desc', 'asc'] as const)
    for (const bound of bounds)
      queries.push({ where: [['h', '==', 'h1'], ...bound], orderBy: [{ field: 'at', direction }] });

  it.each(['inmemory', 'sqlite'] as const)(
    'are exactly the plain scan: ties, nulls, numbers and strings, bounds (%s)',
    async (backend) => {
      const r = rng(7);
      const indexed = indexedStore(backend).collection('items', { indexes: [{ fields: ['h', 'at'] }] });
      const plain = createStore({ backend: 'inmemory' }).collection('items');
      const docs = Array.from({ length: 300 }, (_, n) => {
        const d: Doc = { n, h: r() < 0.8 ? 'h1' : 'h2', at: orderValue(r) };
        // Now and then no value at all: ordering leaves the document out.
        if (r() < 0.05) delete d.at;
        return [`id${String(n).padStart(3, '0')}`, d] as const;
      });
      await indexed.createMany(docs);
      await plain.createMany(docs);
      for (const query of queries)
        for (const limit of [1, 4, 25]) {
          const a = await allPages((cursor) => indexed.query({ ...query, limit, cursor }));
          const b = await allPages((cursor) => plain.query({ ...query, limit, cursor }));
          expect(a, JSON.stringify({ query, limit })).toEqual(b);
          expect(a.flat().length, JSON.stringify(query)).toBeGreaterThan(0);
        }
    },
  );

  it.each(['inmemory', 'sqlite'] as const)(
    'resume after the cursor when its document has moved since (%s)',
    async (backend) => {
      const c = indexedStore(backend).collection('items', { indexes: [{ fields: ['h', 'at'] }] });
      await c.createMany([
        ['a', { n: 'a', h: 'h1', at: 1 }],
        ['b', { n: 'b', h: 'h1', at: 3 }],
        ['c', { n: 'c', h: 'h1', at: 5 }],
        ['d', { n: 'd', h: 'h1', at: 7 }],
      ]);
      const ids = (page: { items: Doc[] }) => page.items.map((d) => d.n);
      const up: Query = { where: [['h', '==', 'h1']], orderBy: [{ field: 'at' }], limit: 2 };
      const first = await c.query(up);
      expect(ids(first)).toEqual(['a', 'b']);
      // b moves up from the cursor's position (3, b), still below c: the next page starts with it.
      await c.put('b', { n: 'b', h: 'h1', at: 4 });
      expect(ids(await c.query({ ...up, cursor: first.nextCursor }))).toEqual(['b', 'c']);
      const down: Query = { ...up, orderBy: [{ field: 'at', direction: 'desc' }] };
      const top = await c.query(down);
      expect(ids(top)).toEqual(['d', 'c']);
      // c moves down from the cursor's position (5, c), still above b.
      await c.put('c', { n: 'c', h: 'h1', at: 4.5 });
      expect(ids(await c.query({ ...down, cursor: top.nextCursor }))).toEqual(['c', 'b']);
    },
  );

  it('walk from the cursor or the upper bound, not from the top of the list (memory index)', () => {
    const index = createMemoryIndex({ fields: ['h', 'at'] }, new Set());
    // 30,000 entries, three per value: ties are walked by id.
    const docs = Array.from({ length: 30_000 }, (_, n) => {
      const id = `id${String(n).padStart(5, '0')}`;
      return [id, { h: 'h1', at: Math.floor(n / 3) }] as const;
    });
    index.addNew(docs);
    const ids = new Map(docs.map(([id, d]) => [d as Doc, id]));
    const page = (query: Query) => {
      const q = normalizeQuery(query);
      const found = index.candidates(q)!;
      let visited = 0;
      const counted = function* () {
        for (const entry of found.walk()) {
          visited++;
          yield entry;
        }
      };
      const { docs: items, nextCursor } = runOrderedQuery(counted(), q, found.covered);
      return { at: items.map((d) => d.at), ids: items.map((d) => ids.get(d)), nextCursor, visited };
    };
    const desc: Query = {
      where: [['h', '==', 'h1']],
      orderBy: [{ field: 'at', direction: 'desc' }],
      limit: 4,
    };
    // The cursor in the middle of a group of ties: the rest of the group, then the values below.
    const deep = page({ ...desc, cursor: cursorAt(desc, { h: 'h1', at: 5000 }, 'id15001') });
    expect(deep.ids).toEqual(['id15002', 'id14997', 'id14998', 'id14999']);
    expect(deep.visited).toBeLessThanOrEqual(5);
    const below = page({ ...desc, where: [...desc.where!, ['at', '<', 5000]] });
    expect(below.ids).toEqual(['id14997', 'id14998', 'id14999', 'id14994']);
    expect(below.visited).toBeLessThanOrEqual(5);
    // A cursor above the bound: the bound is where the walk starts.
    const both = page({
      ...desc,
      where: [...desc.where!, ['at', '<=', 100]],
      cursor: cursorAt(desc, { h: 'h1', at: 5000 }, 'id15001'),
    });
    expect(both.ids).toEqual(['id00300', 'id00301', 'id00302', 'id00297']);
    expect(both.visited).toBeLessThanOrEqual(5);
  });
});
