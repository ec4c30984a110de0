// A process killed mid-upload leaves its temporary file under `.tmp`; the next start of a local
// storage on that directory removes such files once they are an hour old, and leaves a write
// still in progress (touched recently) alone.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalStorage, removeAbandonedWrites } from '../src/local-storage.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function blobsWithTemporaries() {
  const dir = mkdtempSync(join(tmpdir(), 'abandoned-'));
  dirs.push(dir);
  mkdirSync(join(dir, '.tmp'));
  const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
  for (const name of ['cut-by-crash', 'cut-by-crash.meta']) {
    writeFileSync(join(dir, '.tmp', name), Buffer.alloc(2_000_000));
    utimesSync(join(dir, '.tmp', name), twoHoursAgo, twoHoursAgo);
  }
  writeFileSync(join(dir, '.tmp', 'in-progress'), 'still arriving');
  return dir;
}

describe('temporary files of writes a crash cut off', () => {
  it('are removed when the storage starts; a write in progress is kept', async () => {
    const dir = blobsWithTemporaries();
    const told = vi.fn();
    createLocalStorage({
      backend: 'local',
      dir,
      signingSecret: 's'.repeat(32),
      publicBaseUrl: 'http://127.0.0.1:9',
      onAbandonedWrites: told,
    });
    await vi.waitFor(() => expect(readdirSync(join(dir, '.tmp'))).toEqual(['in-progress']));
    // The operator hears of it: what went, and how much space came back.
    await vi.waitFor(() =>
      expect(told).toHaveBeenCalledWith({ dir: join(dir, '.tmp'), removed: 2, failed: 0, bytes: 4_000_000 }),
    );
  });

  it('two services cleaning one folder at once remove each file once and report no failure', async () => {
    const dir = blobsWithTemporaries();
    const [a, b] = await Promise.all([removeAbandonedWrites(dir), removeAbandonedWrites(dir)]);
    expect(a.removed + b.removed).toBe(2);
    expect(a.failed + b.failed).toBe(0);
  });

  it('counts what it removed, and a directory without temporaries is fine', async () => {
    expect((await removeAbandonedWrites(blobsWithTemporaries())).removed).toBe(2);
    const empty = mkdtempSync(join(tmpdir(), 'abandoned-'));
    dirs.push(empty);
    expect(await removeAbandonedWrites(empty)).toMatchObject({ removed: 0, failed: 0 });
  });
});
