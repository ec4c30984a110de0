import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type CollectionOptions,
  createStore,
  type Doc,
  type Store,
  StoreUnavailableError,
} from '../src/index.ts';

// A real full disk: a 2 MB tmpfs. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test is
// skipped and sqlite-write-probe.test.ts covers the logic with an injected disk.
const dir = mkdtempSync(join(tmpdir(), 'hs-store-disk-'));
const mountError = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err).trim() || 'mount failed';
  }
})();
let store: Store | undefined;
afterAll(async () => {
  await store?.close().catch(() => {});
  if (mountError === null) execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});

// Several indexes and array fields make each write many WAL frames, so the write that fails
// leaves WAL space behind (the probe's own commit used to fit there).
const OPTIONS: CollectionOptions = {
  indexes: [
    { fields: ['h', 'status', 'price'] },
    { fields: ['h', 'status', 'tags', 'price'] },
    { fields: ['h', 'status', 'labels', 'price'] },
  ],
  arrayFields: ['tags', 'labels'],
};
type Offer = Doc & {
  id: string;
  h: string;
  status: string;
  price: number;
  tags: string[];
  labels: string[];
  title: string;
};
const offer = (id: string, i: number): Offer => ({
  id,
  h: 'h1',
  status: 'ACTIVE',
  price: i,
  tags: ['linen', 'shirt', `t${i}`, `u${i}`],
  labels: ['white', 'summer', `l${i}`],
  title: `Linen summer shirt ${i} `.repeat(40),
});
const later = () => vi.setSystemTime(Date.now() + 2500);

describe('sqlite on a full disk (tmpfs)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is not ready once writes fail with SQLITE_FULL, over several probes, and ready again once space is freed', async (ctx) => {
    if (mountError !== null) ctx.skip(`needs a 2 MB tmpfs (mount as root): ${mountError}`);
    // Room to free later: more than RESUME_FREE_BYTES.
    const filler = join(dir, 'filler');
    writeFileSync(filler, Buffer.alloc(1280 * 1024));
    store = createStore({ backend: 'sqlite', file: join(dir, 'commerce.sqlite') });
    const offers = store.collection<Offer>('offers', OPTIONS);
    expect(await store.ping()).toBe(true);

    let error: unknown;
    for (let i = 0; i < 2000 && !error; i++)
      await offers.create(`o${i}`, offer(`o${i}`, i)).catch((err) => {
        error = err;
      });
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe('SQLITE_FULL');

    for (let round = 0; round < 5; round++) {
      expect(await store.ping()).toBe(false);
      later();
    }
    await expect(offers.create('big', offer('big', 0))).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(await store.ping()).toBe(false);

    rmSync(filler);
    later();
    expect(await store.ping()).toBe(true);
    await offers.create('after', offer('after', 1));
    expect(await offers.get('after')).not.toBeNull();
    await store.close();
    store = undefined;
  });
});
