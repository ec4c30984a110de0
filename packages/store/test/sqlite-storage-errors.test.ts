import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, StoreUnavailableError } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hs-store-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite storage errors', () => {
  it('keeps SQLITE_FULL (not a failed ROLLBACK) and reports the store unwritable until writes work again', async () => {
    const store = createStore({
      backend: 'sqlite',
      file: join(dir, 'full.sqlite'),
      maxSizeBytes: 128 * 1024,
    });
    // Array fields make every write a transaction, the case whose ROLLBACK used to hide the error.
    const docs = store.collection<{ id: string; tags: string[]; text: string }>('docs', {
      arrayFields: ['tags'],
    });
    expect(await store.ping()).toBe(true);
    let error: unknown;
    for (let i = 0; i < 500 && !error; i++)
      await docs.create(`d${i}`, { id: `d${i}`, tags: ['a'], text: 'x'.repeat(2000) }).catch((err) => {
        error = err;
      });
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe('SQLITE_FULL');
    expect((error as Error).message).toBe(
      'Storage is full: the change was not saved (SQLITE_FULL); try again later',
    );
    expect(((error as Error).cause as Error).message).toBe('database or disk is full');
    expect(await store.ping()).toBe(false);
    // Reads still work; freeing room makes the store writable again.
    expect(await docs.get('d0')).not.toBeNull();
    for (let i = 0; i < 20; i++) await docs.delete(`d${i}`);
    await docs.create('again', { id: 'again', tags: [], text: 'small' });
    expect(await store.ping()).toBe(true);
    await store.close();
  });

  it.each([
    ['removed (DATA_DIR deleted)', (file: string) => rmSync(`${file}`, { force: true })],
    [
      'replaced by another file',
      (file: string) => {
        rmSync(file, { force: true });
        writeFileSync(file, '');
      },
    ],
  ])(
    'refuses writes (503) and is not ready once its file is %s, instead of writing to a lost file',
    async (_case, change) => {
      const sub = join(dir, `gone-${Math.random()}`);
      mkdirSync(sub);
      const file = join(sub, 'data.sqlite');
      const store = createStore({ backend: 'sqlite', file });
      const docs = store.collection<{ id: string }>('docs');
      await docs.create('before', { id: 'before' });
      expect(await store.ping()).toBe(true);
      change(file);
      expect(await store.ping()).toBe(false);
      const error = await docs.create('after', { id: 'after' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).code).toBe('SQLITE_CANTOPEN');
      expect((error as Error).message).toBe(
        'Storage file was removed or replaced while the service ran: the change was not saved (SQLITE_CANTOPEN); try again later',
      );
      // Reads of what the open file holds still answer.
      expect(await docs.get('before')).toEqual({ id: 'before' });
      await store.close();
    },
  );

  it('serves again once the very file it opened is back (a directory renamed away and back)', async () => {
    const sub = join(dir, `back-${Math.random()}`);
    mkdirSync(sub);
    const store = createStore({ backend: 'sqlite', file: join(sub, 'data.sqlite') });
    const docs = store.collection<{ id: string }>('docs');
    await docs.create('before', { id: 'before' });
    renameSync(sub, `${sub}-away`);
    expect(await store.ping()).toBe(false);
    renameSync(`${sub}-away`, sub);
    expect(await store.ping()).toBe(true);
    await docs.create('after', { id: 'after' });
    await store.close();
  });
});
