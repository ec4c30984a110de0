// Another process holding the file's lock (a backup, an `sqlite3` shell left inside a
// transaction): a write waits the busy timeout, then fails as a 503 the client can retry
// (SQLITE_BUSY), not as a 500, and writes again once the lock is let go.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, StoreUnavailableError } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hs-store-busy-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a database file another connection holds locked', () => {
  it('fails a write with SQLITE_BUSY after the busy timeout, and writes again once it is free', async () => {
    const file = join(dir, 'busy.sqlite');
    const store = createStore({ backend: 'sqlite', file });
    const items = store.collection<{ id: string; n: number }>('items');
    await items.put('a', { id: 'a', n: 1 });
    const other = new DatabaseSync(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const error = await items.put('b', { id: 'b', n: 2 }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ code: 'SQLITE_BUSY' });
      expect((error as Error).message).toContain('another process holds its lock');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await items.put('b', { id: 'b', n: 2 });
    expect(await items.get('b')).toEqual({ id: 'b', n: 2 });
    await store.close();
  });
});
