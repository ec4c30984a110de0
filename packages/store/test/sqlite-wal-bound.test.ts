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
