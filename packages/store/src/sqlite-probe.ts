import type { DatabaseSync } from 'node:sqlite';
import type { StorageHealth } from './sqlite-open.ts';
import { fromSqliteError, StoreUnavailableError } from './store-errors.ts';

/** Readiness polls often: the write probe runs at most this often. */
const PROBE_EVERY_MS = 2000;

/**
 * Whether the store can take writes, for /ready. A read alone says nothing about a full disk or
 * a read-only file, so the probe writes: one committed row (the WAL must grow: a full disk or a
 * read-only file fails it) and one page-sized insert that is rolled back (a database at its size
 * limit fails it). A write that fails in a collection marks the store unwritable at once; the
 * next probe or successful write clears it.
 */
export function createWriteProbe(db: DatabaseSync): StorageHealth & { check(): Promise<boolean> } {
  let lastFailure: StoreUnavailableError | null = null;
  let checkedAt = 0;
  let created = false;

  const probe = (): void => {
    if (!created) {
      db.exec('CREATE TABLE IF NOT EXISTS _hs_probe (id INTEGER PRIMARY KEY, at INTEGER, pad BLOB)');
      created = true;
    }
    db.prepare('INSERT OR REPLACE INTO _hs_probe (id, at, pad) VALUES (1, ?, NULL)').run(Date.now());
    db.exec('BEGIN IMMEDIATE');
    try {
      db.prepare('INSERT OR REPLACE INTO _hs_probe (id, at, pad) VALUES (2, ?, randomblob(16384))').run(
        Date.now(),
      );
    } finally {
      if (db.isTransaction) db.exec('ROLLBACK');
    }
  };

  return {
    failed(err) {
      lastFailure = err;
      checkedAt = 0; // the next /ready probes again instead of trusting a cached success
    },
    succeeded() {
      lastFailure = null;
    },
    async check() {
      if (!db.isOpen) return false;
      if (Date.now() - checkedAt < PROBE_EVERY_MS) return lastFailure === null;
      checkedAt = Date.now();
      try {
        probe();
        lastFailure = null;
      } catch (err) {
        const mapped = fromSqliteError(err);
        lastFailure =
          mapped instanceof StoreUnavailableError
            ? mapped
            : new StoreUnavailableError('SQLITE_ERROR', 'Storage failed its write probe', { cause: err });
      }
      return lastFailure === null;
    },
  };
}
