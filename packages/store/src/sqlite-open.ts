import { DatabaseSync } from 'node:sqlite';
import { aroundCalls } from './around-calls.ts';
import { fromSqliteError, StoreUnavailableError, StoreUnusableError } from './store-errors.ts';
import type { Collection, Doc } from './types.ts';

/**
 * How long a write waits for a lock another process holds. `DatabaseSync` waits synchronously,
 * so the whole service (its /health too) stands still meanwhile: long enough for another
 * writer's transaction on the same file, short enough that a lock held for good (a backup, a
 * shell left in a transaction) answers 503 SQLITE_BUSY instead of freezing every request.
 */
const BUSY_TIMEOUT_MS = 2000;

/** What a write-ahead log is cut back to after a checkpoint (sqlite-store.ts may lower it). */
export const WAL_KEPT_BYTES = 4 * 1024 * 1024;

/** Opens the file and runs `PRAGMA quick_check`; a damaged file stops the boot with one line naming it. */
export function openChecked(file: string): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    // A checkpoint (the one fsync of WAL mode at synchronous=NORMAL) every 10,000 pages (~40 MB
    // of WAL) instead of 1,000: with six indexes an audit append dirties several pages, and
    // fsyncs every ~100 appends cost a third of the ledger's write speed (4.3k -> 6.0k appends/s).
    db.exec('PRAGMA wal_autocheckpoint = 10000');
    // After a checkpoint the log is cut back to 4 MB when writing starts again from its beginning:
    // kept at its high-water mark, every busy service held a 40 MB -wal file for as long as it
    // ran (280 MB for the stack in a soak), beside databases of a few MB.
    db.exec(`PRAGMA journal_size_limit = ${WAL_KEPT_BYTES}`);
    // A 32 MB page cache instead of SQLite's 2 MB: a search over a catalogue of 100k offers walks
    // pages of the walk table, the side table and the documents that a 2 MB cache evicts between
    // queries (p50 1.2 -> 0.6 ms). It fills only as pages are read; an idle service stays small.
    db.exec('PRAGMA cache_size = -32768');
    const rows = db.prepare('PRAGMA quick_check(5)').all();
    const problems = rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok');
    // SQLite's report spans lines ("*** in database main ***"); the boot refusal is one line.
    if (problems.length > 0)
      throw new Error(
        problems
          .join('; ')
          .replace(/\*\*\* in database \w+ \*\*\*/g, '')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    return db;
  } catch (err) {
    if (db?.isOpen) db.close();
    const cause = fromSqliteError(err);
    const code = cause instanceof StoreUnavailableError ? cause.code : undefined;
    throw new StoreUnusableError(`the database file ${file} ${openFailure(code, (err as Error).message)}`, {
      cause: err,
    });
  }
}

/**
 * What went wrong, after "the database file <path>": one that cannot be opened or written is
 * not called damaged (a read-only DATA_DIR is not corruption); the rest failed the check.
 */
function openFailure(code: string | undefined, message: string): string {
  if (code === 'SQLITE_CANTOPEN')
    return 'cannot be opened or created (SQLITE_CANTOPEN); DATA_DIR must be a writable directory holding a readable and writable file';
  if (code === 'SQLITE_READONLY')
    return 'is read-only (SQLITE_READONLY); the file and DATA_DIR must be writable by the service';
  return `failed PRAGMA quick_check: ${code ?? message}`;
}

/** The health a collection reports its storage failures to (see sqlite-probe.ts). */
export interface StorageHealth {
  failed(err: StoreUnavailableError): void;
  succeeded(): void;
  /** Why no write may even be tried (the database file is gone), or null. */
  refusal?(): StoreUnavailableError | null;
}

const WRITES = new Set(['create', 'createMany', 'put', 'delete', 'update']);

/**
 * Turns SQLite's storage errors into StoreUnavailableError (503) with the original as its cause,
 * and tells `health` how writes go, so /ready turns 503 as soon as one fails.
 */
export function guarded<T extends Doc>(collection: Collection<T>, health: StorageHealth): Collection<T> {
  return aroundCalls(collection, async (name, call) => {
    const refused = WRITES.has(name) ? (health.refusal?.() ?? null) : null;
    if (refused) throw refused;
    try {
      const result = await call();
      if (WRITES.has(name)) health.succeeded();
      return result;
    } catch (err) {
      const mapped = fromSqliteError(err);
      if (mapped instanceof StoreUnavailableError) health.failed(mapped);
      throw mapped;
    }
  });
}
