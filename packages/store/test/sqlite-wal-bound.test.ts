import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, type Doc, type Store, StoreUnavailableError } from '../src/index.ts';

type Item = Doc & { id: string; h: string; price: number; title: string };
const MB = 1024 * 1024;

describe('SQLITE_MAX_SIZE_MB on a real file', () => {
  let dir: string | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('bounds the write-ahead log too: rewrites, then writes until SQLITE_FULL, keep the -wal file within the cap', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hs-store-wal-'));
    const file = join(dir, 'wardrobe.sqlite');
    store = createStore({ backend: 'sqlite', file, maxSizeBytes: MB });
    const items = store.collection<Item>('items', { indexes: [{ fields: ['h', 'price'] }] });
    const item = (id: string, i: number): Item => ({
      id,
      h: 'h1',
      price: i,
      title: `linen shirt ${i} `.repeat(120),
    });
    let largestWal = 0;
    const measure = () => {
      if (existsSync(`${file}-wal`)) largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
    };

    // Rewrites of the same rows: the database stays small, every version goes to the log.
    for (let i = 0; i < 3000; i++) {
      await items.put(`item_${i % 50}`, item(`item_${i % 50}`, i));
      if (i % 25 === 0) measure();
    }
    // Then new rows until the cap refuses one.
    let full: unknown;
    for (let i = 0; i < 5000 && !full; i++) {
      await items.put(`new_${i}`, item(`new_${i}`, i)).catch((err: unknown) => {
        full = err;
      });
      if (i % 25 === 0) measure();
    }
    measure();
    expect(full).toBeInstanceOf(StoreUnavailableError);
    expect((full as StoreUnavailableError).code).toBe('SQLITE_FULL');
    expect(statSync(file).size).toBeLessThanOrEqual(MB);
    // A quarter of the cap between checkpoints, plus the transaction that crossed it.
    expect(largestWal).toBeLessThanOrEqual(MB / 2);
  });
});

describe('the write-ahead log without a cap', () => {
  let dir: string | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is cut back to 4 MB after a checkpoint, not kept at its 40 MB high-water mark', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hs-store-wal-'));
    const file = join(dir, 'orchestrator.sqlite');
    store = createStore({ backend: 'sqlite', file });
    const items = store.collection<Item>('items', { indexes: [{ fields: ['h', 'price'] }] });
    const wal = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    // Rewrites of the same rows in batches: every version goes to the log, past the 10,000-page
    // (40 MB) checkpoint interval, after which writing starts over at the log's beginning.
    const sizes: number[] = [];
    for (let round = 0; round < 80; round++) {
      await items.createMany([], {
        put: Array.from({ length: 50 }, (_, i) => [
          `item_${i}`,
          { id: `item_${i}`, h: 'h1', price: round, title: `linen shirt ${round} `.repeat(800) },
        ]),
      });
      sizes.push(wal());
    }
    const largest = Math.max(...sizes);
    expect(largest).toBeGreaterThan(30 * MB);
    // The file shrank at that start: cut to 4 MB, then one batch (under 1 MB) written.
    const shrunk = sizes.findIndex((size, i) => i > 0 && size < sizes[i - 1]!);
    expect(shrunk).toBeGreaterThan(0);
    expect(sizes[shrunk]).toBeLessThanOrEqual(5 * MB);
  }, 60_000);
});
