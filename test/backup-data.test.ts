// `pnpm backup <dir>` against a store that is running: the copy holds what was written, the
// writes still in the write-ahead log included, and it never writes over an earlier backup.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createStore } from '@hs/store';
import { REPO_ROOT } from '@hs/testing';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'backup-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const backup = (dataDir: string, target: string) =>
  spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'backup-data.ts'), target], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('pnpm backup', () => {
  it('copies every database of a running store, recent writes included, and never overwrites a backup', async () => {
    const dataDir = join(dir, 'data');
    const stores = ['wardrobe', 'commerce'].map((service) =>
      createStore({ backend: 'sqlite', file: join(dataDir, `${service}.sqlite`) }),
    );
    try {
      for (const [i, store] of stores.entries())
        for (let n = 0; n < 50; n++)
          await store.collection<{ n: number }>('things').put(`t_${i}_${n}`, { n });
      // The writes are in the write-ahead log: the database file alone does not have them yet.
      expect(statSync(join(dataDir, 'wardrobe.sqlite-wal')).size).toBeGreaterThan(0);

      const target = join(dir, 'backup-1');
      const result = backup(dataDir, target);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^commerce\.sqlite: [\d.]+ MB in \d+ ms$/m);
      expect(result.stdout).toContain(`backed up 2 databases from ${dataDir} to ${target}`);
      for (const service of ['wardrobe', 'commerce']) {
        // Opened alone, without the live store's -wal and -shm files, as a restore would.
        expect(existsSync(join(target, `${service}.sqlite-wal`))).toBe(false);
        const copy = new DatabaseSync(join(target, `${service}.sqlite`), { readOnly: true });
        try {
          expect(copy.prepare('SELECT count(*) AS n FROM things').get()).toEqual({ n: 50 });
        } finally {
          copy.close();
        }
      }

      const again = backup(dataDir, target);
      expect(again.status).toBe(1);
      expect(again.stderr.trim()).toBe(
        `${target} already holds commerce.sqlite, wardrobe.sqlite: back up into a new directory`,
      );
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it('says where it looked when there is nothing to back up', () => {
    const result = backup(join(dir, 'empty'), join(dir, 'backup-2'));
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      `no databases (*.sqlite) in ${join(dir, 'empty')}: set DATA_DIR to the stack's data directory`,
    );
  });
});
