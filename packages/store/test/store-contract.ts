import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ABORT,
  type CollectionOptions,
  createSlotCounter,
  type Doc,
  type Query,
  type Store,
  StoreConflictError,
  StoreQueryError,
  StoreUnavailableError,
} from '../src/index.ts';
import { queryContract } from './query-contract.ts';

/**
 * One behavioural contract for every backend. `makeStore` returns a fresh, empty store for each
 * test; `cleanup` runs after each test (default: close the store).
 */
export function describeStoreContract(
  name: string,
  makeStore: () => Promise<Store>,
  cleanup: (store: Store) => Promise<void> = (store) => store.close(),
): void {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await cleanup(store);
    });
    const items = (options?: CollectionOptions) => store.collection<Item>('items', options);

    it('answers ping', async () => {
      // A fresh client's first round trip includes its connection (a loaded Firestore emulator
      // took longer than the ping's 3 s once); the store must answer, if not at once.
      await vi.waitFor(async () => expect(await store.ping()).toBe(true), { timeout: 15_000, interval: 100 });
    });

    it('gets, puts (replacing) and deletes', async () => {
      const c = items();
      expect(await c.get('a')).toBeNull();
      await c.put('a', { name: 'A', n: 1, extra: 'x' });
      expect(await c.get('a')).toEqual({ name: 'A', n: 1, extra: 'x' });
      await c.put('a', { name: 'A2', n: 2 });
      expect(await c.get('a')).toEqual({ name: 'A2', n: 2 });
      expect(await c.delete('a')).toBe(true);
      expect(await c.delete('a')).toBe(false);
      expect(await c.get('a')).toBeNull();
    });

    it('gets many, skipping missing ids', async () => {
      const c = items();
      await c.put('a', { name: 'A', n: 1 });
      await c.put('b', { name: 'B', n: 2 });
      const found = await c.getMany(['b', 'missing', 'a']);
      expect([...found.keys()].sort()).toEqual(['a', 'b']);
      expect(found.get('b')).toEqual({ name: 'B', n: 2 });
      expect((await c.getMany([])).size).toBe(0);
    });

    it('create fails with StoreConflictError on an existing id and keeps the original', async () => {
      const c = items();
      await c.create('a', { name: 'first', n: 1 });
      const err = await c.create('a', { name: 'second', n: 2 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreConflictError);
      expect(err).toMatchObject({ collection: 'items', id: 'a' });
      expect(await c.get('a')).toEqual({ name: 'first', n: 1 });
    });

    it('createMany creates all or none', async () => {
      const c = items();
      await c.createMany([]);
      await c.createMany([
        ['a', { name: 'A', n: 1 }],
        ['b', { name: 'B', n: 2 }],
      ]);
      expect(await c.count()).toBe(2);
      const conflict = c.createMany([
        ['c', { name: 'C', n: 3 }],
        ['a', { name: 'A again', n: 9 }],
      ]);
      await expect(conflict).rejects.toMatchObject({ name: 'StoreConflictError', id: 'a' });
      const duplicate = c.createMany([
        ['d', { name: 'D', n: 4 }],
        ['d', { name: 'D again', n: 4 }],
      ]);
      await expect(duplicate).rejects.toBeInstanceOf(StoreConflictError);
      expect(await c.get('c')).toBeNull();
      expect(await c.get('d')).toBeNull();
      expect(await c.get('a')).toEqual({ name: 'A', n: 1 });
    });

    it('createMany puts its companions in the same write, and neither on a conflict', async () => {
      const c = items();
      await c.createMany([['a', { name: 'A', n: 1 }]], { put: [['head', { name: 'at a', n: 1 }]] });
      expect(await c.get('head')).toEqual({ name: 'at a', n: 1 });
      await c.createMany([['b', { name: 'B', n: 2 }]], { put: [['head', { name: 'at b', n: 2 }]] });
      expect(await c.get('head')).toEqual({ name: 'at b', n: 2 });
      const conflict = c.createMany([['a', { name: 'A again', n: 9 }]], {
        put: [['head', { name: 'at a again', n: 9 }]],
      });
      await expect(conflict).rejects.toMatchObject({ name: 'StoreConflictError', id: 'a' });
      expect(await c.get('head')).toEqual({ name: 'at b', n: 2 });
      expect(await c.get('a')).toEqual({ name: 'A', n: 1 });
    });

    it('update creates when missing, modifies, aborts and deletes', async () => {
      const c = items();
      const created = await c.update('a', (cur) => (cur === null ? { name: 'new', n: 1 } : ABORT));
      expect(created).toEqual({ doc: { name: 'new', n: 1 }, changed: true });
      const modified = await c.update('a', (cur) => (cur ? { ...cur, n: cur.n + 1 } : ABORT));
      expect(modified).toEqual({ doc: { name: 'new', n: 2 }, changed: true });
      const aborted = await c.update('a', (cur) => {
        if (cur) cur.n = 999; // a copy: scribbling on it before aborting must not leak
        return ABORT;
      });
      expect(aborted).toEqual({ doc: { name: 'new', n: 2 }, changed: false });
      expect(await c.get('a')).toEqual({ name: 'new', n: 2 });
      expect(await c.update('missing', () => ABORT)).toEqual({ doc: null, changed: false });
      expect(await c.update('missing', () => null)).toEqual({ doc: null, changed: false });
      expect(await c.update('a', () => null)).toEqual({ doc: null, changed: true });
      expect(await c.get('a')).toBeNull();
    });

    it('update surfaces an error thrown by mutate and leaves the document alone', async () => {
      const c = items();
      await c.put('a', { name: 'A', n: 1 });
      const boom = c.update('a', () => {
        throw new Error('boom');
      });
      await expect(boom).rejects.toThrow('boom');
      expect(await c.get('a')).toEqual({ name: 'A', n: 1 });
    });

    // Long on Firestore: 50 transactions on one document retry with backoff, 4-5 s on an idle
    // emulator and once 37 s on a loaded machine.
    it('spends a one-time token exactly once under 50 concurrent updates', { timeout: 120_000 }, async () => {
      const tokens = store.collection<Token>('tokens');
      await tokens.put('tok', { usedAt: null, usedBy: null });
      const attempts = Array.from({ length: 50 }, (_, i) =>
        tokens.update('tok', (cur) =>
          cur && cur.usedAt === null ? { usedAt: 1000 + i, usedBy: `r${i}` } : ABORT,
        ),
      );
      const results = await Promise.all(attempts);
      const winners = results.filter((r) => r.changed);
      expect(winners).toHaveLength(1);
      const stored = await tokens.get('tok');
      expect(stored).toEqual(winners[0]!.doc);
      expect(results.filter((r) => !r.changed).every((r) => r.doc?.usedBy === stored?.usedBy)).toBe(true);
    });

    it('keeps collections apart', async () => {
      const a = store.collection<Item>('alpha');
      const b = store.collection<Item>('beta');
      await a.put('same', { name: 'in alpha', n: 1 });
      await b.put('same', { name: 'in beta', n: 2 });
      expect(await a.get('same')).toEqual({ name: 'in alpha', n: 1 });
      expect(await b.count()).toBe(1);
      await a.delete('same');
      expect(await b.get('same')).toEqual({ name: 'in beta', n: 2 });
    });

    it('hands out copies, never stored state', async () => {
      const c = items();
      const input = { name: 'A', n: 1, tags: ['x'] };
      await c.put('a', input);
      input.tags.push('mutated-input');
      const read = (await c.get('a'))!;
      read.tags!.push('mutated-read');
      const [queried] = (await c.query()).items;
      queried!.name = 'mutated-query';
      (await c.getMany(['a'])).get('a')!.n = 42;
      expect(await c.get('a')).toEqual({ name: 'A', n: 1, tags: ['x'] });
    });

    it('rejects bad ids on write and finds nothing for them on read', async () => {
      const c = items();
      await expect(c.put('a/b', { name: 'x', n: 1 })).rejects.toBeInstanceOf(StoreQueryError);
      await expect(c.create('', { name: 'x', n: 1 })).rejects.toBeInstanceOf(StoreQueryError);
      expect(await c.get('a/b')).toBeNull();
      expect(await c.delete('..')).toBe(false);
    });

    it('rejects unusable queries', async () => {
      const c = items();
      const bad: Query[] = [
        { cursor: 'not-a-cursor' },
        { cursor: (await pageCursor(c)) ?? '', offset: 1 },
        { where: [['n', '<', null]] },
        { where: [['n', 'in', []]] },
        { where: [['bad field', '==', 1]] },
        { limit: 0 },
      ];
      for (const query of bad) await expect(c.query(query)).rejects.toBeInstanceOf(StoreQueryError);
      expect(() => store.collection('bad/name')).toThrow(StoreQueryError);
      expect(() => store.collection('x', { indexes: [{ fields: ['a b'] }] })).toThrow(StoreQueryError);
    });

    queryContract(() => store);
    slotCounterContract(() => store);
  });
}

/** What a household may hold, counted beside the collection (createSlotCounter). */
function slotCounterContract(getStore: () => Store): void {
  describe('slot counter', () => {
    const counter = () => createSlotCounter(getStore(), 'counts', 'things');
    const counts = () => getStore().collection<Record<string, unknown>>('counts');
    const things = () => getStore().collection<{ owner: string }>('things');
    const heldBy = (owner: string) => () => things().count([['owner', '==', owner]]);
    let n = 0;
    const createFor = (owner: string) => () => things().create(`t${++n}`, { owner });

    it('creates up to the cap, also in a burst; a deletion gives its slot back, never below zero', async () => {
      const held = counter();
      const burst = await Promise.all(
        Array.from({ length: 5 }, () => held.createWithin('h_1', 3, heldBy('h_1'), createFor('h_1'))),
      );
      expect(burst.filter(Boolean)).toHaveLength(3);
      expect(await heldBy('h_1')()).toBe(3);
      const pair = async () => {
        await createFor('h_2')();
        await createFor('h_2')();
      };
      expect(await held.createWithin('h_2', 3, heldBy('h_2'), pair, 2)).toBe(true);
      expect(await held.createWithin('h_2', 3, heldBy('h_2'), pair, 2)).toBe(false);
      await held.give('h_2', 5);
      expect((await counts().get('h_2'))?.things).toBe(0);
      await held.give('h_unknown', 1);
      expect(await counts().get('h_unknown')).toBeNull();
    });

    it('counts an owner from before the counter once, from what it holds', async () => {
      await things().put('old1', { owner: 'h_1' });
      await things().put('old2', { owner: 'h_1' });
      const held = counter();
      expect(await held.createWithin('h_1', 3, heldBy('h_1'), createFor('h_1'))).toBe(true);
      expect(await held.createWithin('h_1', 3, heldBy('h_1'), createFor('h_1'))).toBe(false);
      expect((await counts().get('h_1'))?.things).toBe(3);
    });

    it('gives a failed create its slot back, but keeps it when the create may still land', async () => {
      const held = counter();
      await expect(
        held.createWithin('h_1', 2, heldBy('h_1'), async () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect((await counts().get('h_1'))?.things).toBe(0);
      const timedOut = new StoreUnavailableError('FIRESTORE_TIMEOUT', 'Storage did not answer', {
        outcomeUnknown: true,
      });
      await expect(
        held.createWithin('h_1', 2, heldBy('h_1'), async () => {
          throw timedOut;
        }),
      ).rejects.toBe(timedOut);
      expect((await counts().get('h_1'))?.things).toBe(1);
    });

    it('heals a settled count that drifted above what is held once the owner reaches the cap', async () => {
      await things().put('kept', { owner: 'h_1' });
      // Two slots taken a minute ago by creates that never landed.
      await counts().put('h_1', { owner: 'h_1', things: 3, thingsChangedAt: Date.now() - 60_000 });
      expect(await counter().createWithin('h_1', 3, heldBy('h_1'), createFor('h_1'))).toBe(true);
      expect((await counts().get('h_1'))?.things).toBe(2);
      // A count that moved a moment ago may be creates still under way: left as it is.
      await counts().put('h_2', { owner: 'h_2', things: 3, thingsChangedAt: Date.now() });
      expect(await counter().createWithin('h_2', 3, heldBy('h_2'), createFor('h_2'))).toBe(false);
    });
  });
}

export interface Item extends Doc {
  name: string;
  n: number;
  tags?: string[];
  extra?: string;
}

interface Token extends Doc {
  usedAt: number | null;
  usedBy: string | null;
}

async function pageCursor(c: ReturnType<Store['collection']>): Promise<string | null> {
  await c.put('p1', { n: 1 });
  await c.put('p2', { n: 2 });
  return (await c.query({ orderBy: [{ field: 'n' }], limit: 1 })).nextCursor;
}
