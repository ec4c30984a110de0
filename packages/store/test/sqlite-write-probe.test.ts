import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Collection, type Doc, StoreUnavailableError } from '../src/index.ts';
import { guarded, openChecked } from '../src/sqlite-open.ts';
import { createWriteProbe, MIN_FREE_BYTES, RESUME_FREE_BYTES } from '../src/sqlite-probe.ts';

const dir = mkdtempSync(join(tmpdir(), 'hs-store-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's error for a full disk, as node:sqlite throws it. */
const diskFull = () => Object.assign(new Error('database or disk is full'), { errcode: 13 });

/** A probe on a real file whose filesystem reports `disk.free` bytes free; `later()` passes the probe interval. */
function setup(name: string) {
  const db = openChecked(join(dir, `${name}.sqlite`));
  const disk = { free: 10 * 1024 ** 3, asked: 0 };
  const health = createWriteProbe(db, {
    freeBytes: async () => {
      disk.asked++;
      return disk.free;
    },
  });
  let fail = true;
  // A collection whose writes fail with SQLITE_FULL until `fail` is false, reporting through guarded().
  const docs = guarded(
    {
      create: async () => {
        if (fail) throw diskFull();
      },
    } as unknown as Collection<Doc>,
    health,
  );
  return {
    db,
    disk,
    health,
    docs,
    writesWork: () => {
      fail = false;
    },
  };
}
const later = () => vi.setSystemTime(Date.now() + 2500);

describe('sqlite write probe and disk space', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stays not ready after a write failed with SQLITE_FULL though its own write still fits, until space is free', async () => {
    const { db, disk, health, docs } = setup('full');
    expect(await health.check()).toBe(true);
    disk.free = 0;
    await expect(docs.create('a', { id: 'a' })).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    // The probe's committed row fits here (as in WAL space a failed write left behind): no matter.
    for (let round = 0; round < 3; round++) {
      expect(await health.check()).toBe(false);
      later();
    }
    // Freed, but less than the margin: still not ready (no flapping on a few pages).
    disk.free = RESUME_FREE_BYTES - 1;
    expect(await health.check()).toBe(false);
    later();
    disk.free = RESUME_FREE_BYTES;
    expect(await health.check()).toBe(true);
    // The probe left its one row only.
    expect(db.prepare('SELECT count(*) AS n FROM _hs_probe').get()?.n).toBe(1);
    db.close();
  });

  it('is not ready on a nearly full filesystem before any write failed, and comes back with the margin', async () => {
    const { db, disk, health } = setup('nearly');
    disk.free = MIN_FREE_BYTES - 1;
    expect(await health.check()).toBe(false);
    later();
    disk.free = MIN_FREE_BYTES;
    expect(await health.check()).toBe(false);
    later();
    disk.free = RESUME_FREE_BYTES;
    expect(await health.check()).toBe(true);
    // A success is cached for the probe interval: readiness polls do not each write.
    const asked = disk.asked;
    expect(await health.check()).toBe(true);
    expect(disk.asked).toBe(asked);
    db.close();
  });

  it('a write that succeeds clears SQLITE_FULL; the disk still decides at the next probe', async () => {
    const { db, disk, health, docs, writesWork } = setup('recovers');
    disk.free = 256 * 1024;
    await expect(docs.create('a', { id: 'a' })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await health.check()).toBe(false);
    writesWork();
    await docs.create('b', { id: 'b' });
    expect(await health.check()).toBe(true);
    // A small write may succeed on a full disk too (in WAL space a failed one left behind).
    disk.free = 0;
    await docs.create('c', { id: 'c' });
    later();
    expect(await health.check()).toBe(false);
    db.close();
  });

  it('under a size cap, stays not ready after a large write failed though its own small write still fits', async () => {
    const db = openChecked(join(dir, 'capped.sqlite'));
    db.exec('PRAGMA max_page_count = 256'); // 1 MB of 4 KB pages: margins of 128 KB and 256 KB
    db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)');
    const health = createWriteProbe(db, { freeBytes: async () => 10 * 1024 ** 3 });
    const room = () => {
      const n = (name: string) => Number(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
      return (n('max_page_count') - n('page_count') + n('freelist_count')) * n('page_size');
    };
    // Filled to about 200 KB below the cap: ready.
    while (room() > 220 * 1024) db.prepare('INSERT INTO blobs (data) VALUES (randomblob(8000))').run();
    expect(await health.check()).toBe(true);
    // A 400 KB write fails; the probe's 16 KB would still fit.
    const docs = guarded(
      {
        create: async () => {
          db.prepare('INSERT INTO blobs (data) VALUES (randomblob(400000))').run();
        },
      } as unknown as Collection<Doc>,
      health,
    );
    await expect(docs.create('big', { id: 'big' })).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    later();
    expect(await health.check()).toBe(false);
    // Room freed beyond a quarter of the cap: ready again at the next probe.
    db.exec('DELETE FROM blobs WHERE id <= 20');
    later();
    expect(room()).toBeGreaterThanOrEqual(256 * 1024);
    expect(await health.check()).toBe(true);
    db.close();
  });

  it('leaves other failures to the write probe, and an in-memory database to it alone', async () => {
    const { db, health } = setup('readonly');
    health.failed(new StoreUnavailableError('SQLITE_READONLY', 'Storage is read-only'));
    expect(await health.check()).toBe(true);
    db.close();
    expect(await health.check()).toBe(false);

    const memory = openChecked(':memory:');
    const freeBytes = vi.fn(async () => 0);
    const probe = createWriteProbe(memory, { freeBytes });
    expect(await probe.check()).toBe(true);
    expect(freeBytes).not.toHaveBeenCalled();
    memory.close();
  });
});
