import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CollectionOptions,
  createStore,
  cursorAt,
  type Doc,
  type Page,
  type Query,
} from '../src/index.ts';
import { normalizeQuery } from '../src/normalize-query.ts';
import { sqliteIndexName } from '../src/sqlite-schema.ts';
import { buildNullsAfter, buildSelect, buildWalkSelect } from '../src/sqlite-sql.ts';
import { loadWalks, pickWalk } from '../src/sqlite-walk.ts';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openStore = (file: string) => createStore({ backend: 'sqlite', file });

const ITEM_OPTIONS: CollectionOptions = {
  indexes: [{ fields: ['householdId', 'season', 'price'] }],
  arrayFields: ['season'],
};
const SEASONS = ['SPRING', 'SUMMER', 'FALL', 'WINTER'];

function plan(file: string, query: Query): string[] {
  const { sql, params } = buildSelect('items', new Set(ITEM_OPTIONS.arrayFields), normalizeQuery(query));
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((row) => String(row.detail));
  } finally {
    db.close();
  }
}

describe('sqlite backend', () => {
  it('builds only the indexes sqlite needs, and drops one no longer declared', async () => {
    const file = join(dir, 'indexes.sqlite');
    const indexNames = () => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log' AND name LIKE 'log__by_%'",
          )
          .all()
          .map((r) => String(r.name))
          .sort();
      } finally {
        db.close();
      }
    };
    const first = openStore(file);
    await first
      .collection('log', {
        indexes: [{ fields: ['householdId', 'seq'] }, { fields: ['householdId', 'action', 'seq'] }],
      })
      .put('a', { householdId: 'h', action: 'x', seq: 1 });
    await first.close();
    expect(indexNames()).toEqual(
      [
        sqliteIndexName('log', ['householdId', 'action', 'seq']),
        sqliteIndexName('log', ['householdId', 'seq']),
      ].sort(),
    );
    const second = openStore(file);
    const log = second.collection('log', {
      indexes: [
        { fields: ['householdId', 'seq'] },
        { fields: ['householdId', 'action', 'seq'], firestoreOnly: true },
      ],
    });
    expect(
      (
        await log.query({
          where: [
            ['householdId', '==', 'h'],
            ['action', '==', 'x'],
          ],
          orderBy: [{ field: 'seq' }],
        })
      ).items,
    ).toHaveLength(1);
    await second.close();
    expect(indexNames()).toEqual([sqliteIndexName('log', ['householdId', 'seq'])]);
  });

  it('keeps documents without the first field out of a sparse index, and still serves its queries from it', async () => {
    const file = join(dir, 'sparse.sqlite');
    const indexRows = (db: DatabaseSync, fields: string[]) =>
      Number(
        db
          .prepare(
            `SELECT count(*) AS n FROM "log" INDEXED BY "${sqliteIndexName('log', fields)}" WHERE json_extract(doc, '$.${fields[0]}') IS NOT NULL`,
          )
          .get()?.n,
      );
    // Built dense first, as an earlier version did: declaring it sparse rebuilds it.
    const dense = openStore(file);
    await dense
      .collection('log', { indexes: [{ fields: ['householdId', 'seq'] }] })
      .put('m0', { entryId: 'e0' });
    await dense.close();
    const store = openStore(file);
    const log = store.collection('log', {
      indexes: [{ fields: ['householdId', 'seq'], sparse: true }],
    });
    await log.createMany([
      ['e1', { householdId: 'h', seq: 1 }],
      ['m1', { entryId: 'e1' }],
      ['e2', { householdId: 'h', seq: 2 }],
      ['m2', { entryId: 'e2' }],
      ['x1', { householdId: 'other', seq: 1 }],
    ]);
    const page = await log.query({
      where: [['householdId', '==', 'h']],
      orderBy: [{ field: 'seq', direction: 'desc' }],
    });
    expect(page.items.map((d) => d.seq)).toEqual([2, 1]);
    // Documents without the field are still found by queries that don't need the index.
    expect(await log.get('m1')).toEqual({ entryId: 'e1' });
    expect(await log.count([['entryId', '==', 'e2']])).toBe(1);
    await store.close();

    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const sql = db
        .prepare('SELECT sql FROM sqlite_master WHERE name = ?')
        .get(sqliteIndexName('log', ['householdId', 'seq']))?.sql;
      expect(String(sql)).toContain(`WHERE json_extract(doc, '$.householdId') IS NOT NULL`);
      // Three entries in the index; the two markers and the old one are not.
      expect(indexRows(db, ['householdId', 'seq'])).toBe(3);
      const { sql: select, params } = buildSelect(
        'log',
        new Set(),
        normalizeQuery({ where: [['householdId', '==', 'h']], orderBy: [{ field: 'seq' }], limit: 10 }),
      );
      const steps = db
        .prepare(`EXPLAIN QUERY PLAN ${select}`)
        .all(...params)
        .map((row) => String(row.detail));
      expect(steps.join('\n')).toContain(`USING INDEX ${sqliteIndexName('log', ['householdId', 'seq'])}`);
    } finally {
      db.close();
    }
  });

  it('keeps data, indexes and array membership across close and reopen', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = openStore(file);
    await first
      .collection('items', ITEM_OPTIONS)
      .put('a', { householdId: 'h', season: ['SUMMER'], price: 3 });
    await first.close();
    await first.close(); // idempotent

    const second = openStore(file);
    const items = second.collection('items', ITEM_OPTIONS);
    expect(await items.get('a')).toEqual({ householdId: 'h', season: ['SUMMER'], price: 3 });
    expect(await items.count([['season', 'array-contains', 'SUMMER']])).toBe(1);
    await second.close();
  });

  it('backfills array membership for a field declared after documents exist', async () => {
    const store = openStore(join(dir, 'backfill.sqlite'));
    await store.collection('items').put('a', { householdId: 'h', season: ['FALL', 'WINTER'], price: 1 });
    await store.collection('items').put('b', { householdId: 'h', season: ['SPRING'], price: 2 });
    const items = store.collection('items', ITEM_OPTIONS);
    expect(await items.count([['season', 'array-contains-any', ['WINTER', 'SUMMER']]])).toBe(1);
    await store.close();
  });

  it('serves household + season + price queries on 100,000 rows from the declared indexes', async () => {
    const file = join(dir, 'plan.sqlite');
    const store = openStore(file);
    const items = store.collection('items', ITEM_OPTIONS);
    const rows = Array.from({ length: 100_000 }, (_, i) => {
      const season = [SEASONS[i % 4]!, SEASONS[(i * 7 + 1) % 4]!];
      return [`it${i}`, { householdId: `hh${i % 197}`, season, price: (i * 37) % 500 }] as const;
    });
    await items.createMany(rows);

    const query: Query = {
      where: [
        ['householdId', '==', 'hh5'],
        ['season', 'array-contains', 'SUMMER'],
        ['price', '<=', 50],
      ],
      orderBy: [{ field: 'price' }],
      limit: 10,
    };
    const steps = plan(file, query);
    expect(steps.join('\n')).toContain(`USING INDEX ${sqliteIndexName('items', ['householdId', 'price'])}`);
    expect(steps.join('\n')).toContain('USING PRIMARY KEY (field=? AND value=? AND id=?)');
    expect(steps.some((s) => /^SCAN /.test(s))).toBe(false);
    // The index also delivers price order: no sorting step for the ascending query.
    expect(steps.some((s) => s.includes('TEMP B-TREE'))).toBe(false);

    const expected = rows
      .filter(([, d]) => d.householdId === 'hh5' && d.season.includes('SUMMER') && d.price <= 50)
      .sort(([ia, a], [ib, b]) => a.price - b.price || (ia < ib ? -1 : 1));
    // The plan above is the proof that no full scan happens; its speed is the benchmark's.
    const page = await items.query(query);
    const second = await items.query({ ...query, cursor: page.nextCursor });
    expect([...page.items, ...second.items]).toEqual(expected.slice(0, 20).map(([, d]) => d));
    await store.close();
  });

  it('seeks to the cursor of a descending page instead of walking the household from its newest row', async () => {
    const file = join(dir, 'desc.sqlite');
    const options: CollectionOptions = {
      indexes: [
        { fields: ['householdId', 'createdAt'] },
        { fields: ['householdId', 'tags', 'createdAt'], embeddedOnly: true },
      ],
      arrayFields: ['tags'],
    };
    const store = openStore(file);
    const requests = store.collection('requests', options);
    // Three requests per second (ties by id), now and then one without a time yet (null: last).
    const rows = Array.from({ length: 3000 }, (_, i) => {
      const createdAt =
        i % 40 === 0 ? null : new Date(Date.UTC(2024, 0, 1, 0, 0, Math.floor(i / 3))).toISOString();
      const rid = `r${String(i).padStart(5, '0')}`;
      return [rid, { rid, householdId: i % 4 === 0 ? 'other' : 'h', createdAt, tags: ['x'] }] as const;
    });
    await requests.createMany(rows);
    const query: Query = {
      where: [['householdId', '==', 'h']],
      orderBy: [{ field: 'createdAt', direction: 'desc' }],
      limit: 25,
    };
    const expected = rows
      .filter(([, d]) => d.householdId === 'h')
      .sort(([ia, a], [ib, b]) => {
        if (a.createdAt !== b.createdAt)
          return a.createdAt === null ? 1 : b.createdAt === null ? -1 : a.createdAt < b.createdAt ? 1 : -1;
        return ia < ib ? -1 : 1;
      })
      .map(([id]) => id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<Doc> = await requests.query({ ...query, cursor });
      seen.push(...page.items.map((d) => String(d.rid)));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    await store.close();

    const db = new DatabaseSync(file, { readOnly: true });
    const explain = ({ sql, params }: { sql: string; params: SQLInputValue[] }) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => String(row.detail))
        .join('\n');
    const index = sqliteIndexName('requests', ['householdId', 'createdAt']);
    const deepCursor = cursorAt(query, { createdAt: rows[1501]![1].createdAt }, 'r01501');
    const deep = normalizeQuery({ ...query, cursor: deepCursor });
    const page = explain(buildSelect('requests', new Set(['tags']), deep));
    // A range on the order column right after the household: the seek; no sort of the household.
    expect(page).toContain(`SEARCH t USING INDEX ${index} (<expr>=? AND <expr><?)`);
    expect(page).not.toContain('MULTI-INDEX OR');
    expect(page).not.toContain('USE TEMP B-TREE FOR ORDER BY');
    // The nulls, read once the other rows run out, and paging among them: in index order too.
    const nulls = explain(buildNullsAfter('requests', new Set(['tags']), deep, 26)!);
    expect(nulls).toContain(`SEARCH t USING INDEX ${index} (<expr>=? AND <expr>=?)`);
    expect(nulls).not.toContain('TEMP B-TREE');
    const amongNulls = normalizeQuery({ ...query, cursor: cursorAt(query, { createdAt: null }, 'r00040') });
    const nullPage = explain(buildSelect('requests', new Set(['tags']), amongNulls));
    expect(nullPage).toContain(`SEARCH t USING INDEX ${index} (<expr>=? AND <expr>=? AND id>?)`);
    expect(nullPage).not.toContain('TEMP B-TREE');
    // A walk table seeks to the cursor's value the same way.
    const tagged = normalizeQuery({
      ...query,
      where: [...query.where!, ['tags', 'array-contains', 'x']],
      cursor: deepCursor,
    });
    const walk = pickWalk(loadWalks(db, 'requests'), tagged)!;
    expect(explain(buildWalkSelect('requests', new Set(['tags']), tagged, walk))).toMatch(
      /SEARCH w USING PRIMARY KEY \(k=\? AND v<\?\)/,
    );
    db.close();
  });

  it('walks a walk table for an index over several array fields, and drops it once undeclared', async () => {
    const file = join(dir, 'walk.sqlite');
    const options: CollectionOptions = {
      indexes: [
        { fields: ['householdId', 'price'] },
        { fields: ['householdId', 'colors', 'season', 'price'], embeddedOnly: true },
      ],
      arrayFields: ['colors', 'season'],
    };
    const walkTable = 'items__walk_householdId_colors_season_price';
    const store = openStore(file);
    const items = store.collection('items', options);
    const colors = ['navy', 'red', 'green', 'white'];
    const rows = Array.from({ length: 20_000 }, (_, i) => {
      const doc = {
        householdId: `hh${i % 3}`,
        colors: [colors[i % 4]!, colors[(i * 3) % 4]!],
        season: [SEASONS[Math.floor(i / 4) % 4]!],
        price: (i * 37) % 500,
        tags: i % 5 === 0 ? ['sale'] : [],
      };
      return [`it${i}`, doc] as const;
    });
    await items.createMany(rows);
    const query: Query = {
      where: [
        ['householdId', '==', 'hh1'],
        ['colors', 'array-contains-any', ['navy', 'green']],
        ['season', 'array-contains', 'WINTER'],
        ['price', '<=', 120],
      ],
      orderBy: [{ field: 'price' }],
      limit: 15,
    };
    const expected = rows
      .filter(
        ([, d]) =>
          d.householdId === 'hh1' &&
          d.colors.some((c) => c === 'navy' || c === 'green') &&
          d.season.includes('WINTER') &&
          d.price <= 120,
      )
      .sort(([ia, a], [ib, b]) => a.price - b.price || (ia < ib ? -1 : 1))
      .map(([, d]) => d);
    const pages = [];
    let cursor: string | null = null;
    do {
      const page = await items.query({ ...query, cursor });
      pages.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(expected.length).toBeGreaterThan(30);
    expect(pages).toEqual(expected);
    await store.close();

    // The walk table drives: no scan, and the remaining filters are probed per walked row.
    const q = normalizeQuery(query);
    const arrays = new Set(options.arrayFields);
    const walk = pickWalk(
      [
        {
          table: walkTable,
          prefix: ['householdId', 'colors', 'season'],
          last: 'price',
          arrays,
          elements: [],
        },
      ],
      q,
    );
    const select = buildWalkSelect('items', arrays, q, walk!);
    const planDb = new DatabaseSync(file, { readOnly: true });
    const steps = planDb
      .prepare(`EXPLAIN QUERY PLAN ${select.sql}`)
      .all(...select.params)
      .map((row) => String(row.detail));
    planDb.close();
    expect(steps.join('\n')).toMatch(/SEARCH w USING PRIMARY KEY \(k=\? AND v<\?\)/);
    expect(steps.some((step) => /^SCAN /.test(step))).toBe(false);

    const db = new DatabaseSync(file, { readOnly: true });
    // One row per combination of a document's colours and seasons.
    const walkRows = Number(db.prepare(`SELECT count(*) AS n FROM "${walkTable}"`).get()?.n);
    db.close();
    expect(walkRows).toBe(rows.reduce((n, [, d]) => n + new Set(d.colors).size * d.season.length, 0));

    // An array field declared later: the walk rows are rewritten to carry its elements, and a
    // filter on it is checked on the walked rows.
    const wider = openStore(file);
    const tagged = wider.collection('items', { ...options, arrayFields: ['colors', 'season', 'tags'] });
    const onSale = await tagged.query({
      where: [...query.where!, ['tags', 'array-contains', 'sale']],
      orderBy: query.orderBy!,
    });
    expect(onSale.items).toEqual(expected.filter((d) => d.tags.includes('sale')));
    expect(onSale.items.length).toBeGreaterThan(0);
    await wider.close();
    const rewritten = new DatabaseSync(file, { readOnly: true });
    const carrying = rewritten
      .prepare(`SELECT count(*) AS n FROM "${walkTable}" WHERE instr(a, 'tags') > 0`)
      .get();
    rewritten.close();
    const taggedRows = rows
      .filter(([, d]) => d.tags.length > 0)
      .reduce((n, [, d]) => n + new Set(d.colors).size * d.season.length, 0);
    expect(taggedRows).toBeGreaterThan(0);
    expect(Number(carrying?.n)).toBe(taggedRows);

    const later = openStore(file);
    later.collection('items', { ...options, indexes: options.indexes!.slice(0, 1) });
    await later.close();
    const after = new DatabaseSync(file, { readOnly: true });
    const tables = after
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%walk%'")
      .all();
    after.close();
    expect(tables.map((t) => t.name)).toEqual(['_store_walk_indexes']);
  });

  it('keeps the walk rows of a document with many elements small, and still finds it by each of them', async () => {
    const file = join(dir, 'walk-wordy.sqlite');
    const walkTable = 'items__walk_householdId_colors_season_price';
    const store = openStore(file);
    const items = store.collection('items', {
      indexes: [{ fields: ['householdId', 'colors', 'season', 'price'], embeddedOnly: true }],
      arrayFields: ['colors', 'season', 'tags'],
    });
    // Every tenth document carries 200 tags (about 4 KB of elements on each of its 8 rows).
    const rows = Array.from({ length: 400 }, (_, i) => {
      const wordy = i % 10 === 0;
      const doc = {
        householdId: 'hh',
        colors: wordy ? ['navy', 'red'] : ['navy'],
        season: wordy ? SEASONS : [SEASONS[i % 4]!],
        price: (i * 37) % 300,
        tags: wordy ? Array.from({ length: 200 }, (_, t) => `tag-${t}`) : [`tag-${i % 7}`],
      };
      return [`it${String(i).padStart(3, '0')}`, doc] as const;
    });
    await items.createMany(rows);
    const search = async (tags: string[]) => {
      const found = [];
      let cursor: string | null = null;
      do {
        const page = await items.query({
          where: [
            ['householdId', '==', 'hh'],
            ['colors', 'array-contains', 'navy'],
            ['season', 'array-contains', 'WINTER'],
            tags.length === 1 ? ['tags', 'array-contains', tags[0]] : ['tags', 'array-contains-any', tags],
          ],
          orderBy: [{ field: 'price' }],
          limit: 7,
          cursor,
        });
        found.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return found;
    };
    const expected = (tags: string[]) =>
      rows
        .filter(([, d]) => d.season.includes('WINTER') && d.tags.some((t) => tags.includes(t)))
        .sort(([ia, a], [ib, b]) => a.price - b.price || (ia < ib ? -1 : 1))
        .map(([, d]) => d);
    // Only the wordy documents carry tag-150; both kinds carry tag-3.
    for (const tags of [['tag-150'], ['tag-3'], ['tag-199', 'tag-5']]) {
      const want = expected(tags);
      expect(want.length).toBeGreaterThan(3);
      expect(await search(tags)).toEqual(want);
    }
    await store.close();

    const db = new DatabaseSync(file, { readOnly: true });
    const longest = db
      .prepare(`SELECT max(length(k) + length(id) + length(a)) AS n FROM "${walkTable}"`)
      .get();
    const leftOut = db.prepare(`SELECT count(*) AS n FROM "${walkTable}" WHERE instr(a, 'tag-') = 0`).get();
    db.close();
    // Each row fits in its page (SQLite moves a row over about 1,000 bytes to overflow pages).
    expect(Number(longest?.n)).toBeLessThan(1000);
    expect(Number(leftOut?.n)).toBe(40 * 2 * 4);
  });

  it('builds neither a walk table nor an index for a memory-only index, and still answers its queries', async () => {
    const file = join(dir, 'memory-only.sqlite');
    const store = openStore(file);
    const items = store.collection('items', {
      indexes: [
        { fields: ['h', 'colors', 'price'] },
        { fields: ['h', 'colors', 'season', 'price'], embeddedOnly: true, memoryOnly: true },
        { fields: ['h', 'q', 'price'], memoryOnly: true },
      ],
      arrayFields: ['colors', 'season'],
    });
    await items.createMany([
      ['a', { h: 'x', colors: ['red'], season: ['WINTER'], price: 2 }],
      ['b', { h: 'x', colors: ['red'], season: ['SUMMER'], price: 1 }],
      ['c', { h: 'x', colors: ['red', 'navy'], season: ['WINTER'], price: 3 }],
    ]);
    const page = await items.query({
      where: [
        ['h', '==', 'x'],
        ['colors', 'array-contains', 'red'],
        ['season', 'array-contains', 'WINTER'],
      ],
      orderBy: [{ field: 'price' }],
    });
    expect(page.items.map((d) => d.price)).toEqual([2, 3]);
    await store.close();
    const db = new DatabaseSync(file, { readOnly: true });
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'items__walk%' OR name LIKE 'items__by_%'")
      .all()
      .map((r) => String(r.name));
    db.close();
    expect(names).toEqual([sqliteIndexName('items', ['h', 'price'])]);
  });

  it('keeps every connection on a file in step with walk tables another one adds, rewrites or drops', async () => {
    const file = join(dir, 'walk-peers.sqlite');
    const walkIndex = { fields: ['h', 'colors', 'season', 'price'], embeddedOnly: true };
    const query: Query = {
      where: [
        ['h', '==', 'x'],
        ['colors', 'array-contains', 'red'],
        ['season', 'array-contains', 'WINTER'],
      ],
      orderBy: [{ field: 'price' }],
    };
    const prices = async (c: { query(q: Query): Promise<{ items: Doc[] }> }) =>
      (await c.query(query)).items.map((d) => d.price);
    const doc = (price: number) => ({ h: 'x', colors: ['red'], season: ['WINTER'], price });

    // `season` is declared an array field only later: rows written before are rewritten.
    const first = openStore(file);
    const early = first.collection('items', { indexes: [walkIndex], arrayFields: ['colors'] });
    await early.put('d1', doc(1));
    const both = first.collection('items', { indexes: [walkIndex], arrayFields: ['colors', 'season'] });
    await both.put('d2', doc(2));
    expect(await prices(both)).toEqual([1, 2]);

    // A second connection that never declared the walk maintains it once it exists.
    const second = openStore(file);
    const plain = second.collection('items');
    await plain.put('d3', doc(3));
    expect(await prices(both)).toEqual([1, 2, 3]);

    // A third connection drops it: the others go on writing and reading without it.
    const third = openStore(file);
    third.collection('items', { indexes: [], arrayFields: ['colors', 'season'] });
    await both.put('d4', doc(4));
    await plain.put('d5', doc(5));
    expect(await prices(both)).toEqual([1, 2, 3, 4, 5]);
    expect(await prices(plain)).toEqual([1, 2, 3, 4, 5]);
    for (const store of [first, second, third]) await store.close();
  });

  it('spends each token exactly once across two processes on one file', async () => {
    const file = join(dir, 'tokens.sqlite');
    const count = 300;
    const store = openStore(file);
    const tokens = store.collection('tokens');
    await tokens.createMany(Array.from({ length: count }, (_, i) => [`tok${i}`, { usedBy: null }] as const));
    await store.close();

    const script = join(import.meta.dirname, 'fixtures', 'spend-tokens.ts');
    const startAt = String(Date.now() + 700);
    const run = () => promisify(execFile)(process.execPath, [script, file, startAt, String(count)]);
    const results = await Promise.all([run(), run()]);
    const won = results.map((r) => JSON.parse(r.stdout) as string[]);
    const all = won.flat();
    expect(all).toHaveLength(count);
    expect(new Set(all).size).toBe(count);
  });
});
