import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { assertCollectionName } from './names.ts';
import { type SqliteHandle, sqliteCollection } from './sqlite-collection.ts';
import { guarded, openChecked, WAL_KEPT_BYTES } from './sqlite-open.ts';
import { createWriteProbe } from './sqlite-probe.ts';
import { ensureCollectionSchema } from './sqlite-schema.ts';
import { loadWalks, type WalkIndex } from './sqlite-walk.ts';
import type { Collection, CollectionOptions, Doc, Store } from './types.ts';

const MAX_CACHED_STATEMENTS = 500;

/**
 * Per-process view of a collection's schema. Array fields and walk tables are re-read from the file whenever a
 * new declaration arrives; a process that never declares a field another process added would not
 * maintain it, so every process of a service should declare its collections the same way.
 */
interface CollectionState {
  /** Shared by every handle on the collection so later declarations reach earlier handles. */
  arrayFields: Set<string>;
  /** Walk tables kept for the collection (sqlite-walk.ts), as of `walksSchema`. */
  walks: WalkIndex[];
  /** The file's schema_version when `walks` was read: a walk table created or dropped by another connection changes it. */
  walksSchema: number;
  declared: Set<string>;
}

/** The write-ahead log may take at most this share of SQLITE_MAX_SIZE_MB beside the database. */
const WAL_SHARE_OF_CAP = 4;
/** The default checkpoint interval (sqlite-open.ts), which a small cap lowers. */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * SQLITE_MAX_SIZE_MB bounds what is on disk, not only the database: `max_page_count` caps the
 * database file, and the write-ahead log, which holds a copy of every page changed since the last
 * checkpoint (rewrites of the same rows included), is checkpointed once it reaches a quarter of
 * the cap and cut back to that size after each checkpoint. Without it, a 1 MB cap let the -wal
 * file grow to 40 MB (the 10,000-page default interval) under rewrites.
 */
function boundFileSizes(db: DatabaseSync, maxSizeBytes: number): void {
  const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
  const capPages = Math.max(1, Math.floor(maxSizeBytes / pageSize));
  db.exec(`PRAGMA max_page_count = ${capPages}`);
  const walPages = Math.max(1, Math.min(WAL_AUTOCHECKPOINT_PAGES, Math.floor(capPages / WAL_SHARE_OF_CAP)));
  db.exec(`PRAGMA wal_autocheckpoint = ${walPages}`);
  db.exec(`PRAGMA journal_size_limit = ${Math.min(walPages * pageSize, WAL_KEPT_BYTES)}`);
}

/**
 * One SQLite file per service; WAL so readers never block on the writer. A file that fails
 * `PRAGMA quick_check` (or is not a database) is refused here, so a damaged store never serves.
 */
export function createSqliteStore(file: string, options: { maxSizeBytes?: number | undefined } = {}): Store {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = openChecked(file);
  if (options.maxSizeBytes !== undefined) boundFileSizes(db, options.maxSizeBytes);
  const health = createWriteProbe(db);

  const statements = new Map<string, StatementSync>();
  const handle: SqliteHandle = {
    statement(sql) {
      let stmt = statements.get(sql);
      if (!stmt) {
        // Query shapes are bounded in practice; the cap only guards against a pathological caller.
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear();
        stmt = db.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt;
    },
    transaction(fn) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (err) {
        // SQLite has already rolled back after SQLITE_FULL, IOERR and the like: a second
        // ROLLBACK would fail ("no transaction is active") and hide the real error.
        if (db.isTransaction) db.exec('ROLLBACK');
        throw err;
      }
    },
  };

  const schemaVersion = (): number => Number(handle.statement('PRAGMA schema_version').get()?.schema_version);
  const states = new Map<string, CollectionState>();
  return {
    backend: 'sqlite',
    collection<T extends Doc>(name: string, options: CollectionOptions = {}): Collection<T> {
      assertCollectionName(name);
      let state = states.get(name);
      if (!state) {
        state = { arrayFields: new Set(), walks: [], walksSchema: -1, declared: new Set() };
        states.set(name, state);
      }
      const key = JSON.stringify(options);
      if (!state.declared.has(key)) {
        const schema = handle.transaction(() => ensureCollectionSchema(db, name, options));
        for (const field of schema.arrayFields) state.arrayFields.add(field);
        state.walks = schema.walks;
        state.walksSchema = schemaVersion();
        state.declared.add(key);
      }
      const own = state;
      // One cheap header read per operation keeps every connection on the file writing and
      // reading the walk tables that exist now, not those it saw when it opened the collection.
      const walks = () => {
        const version = schemaVersion();
        if (version !== own.walksSchema) {
          own.walks = loadWalks(db, name);
          own.walksSchema = version;
        }
        return own.walks;
      };
      return guarded(sqliteCollection<T>(handle, name, state.arrayFields, walks), health);
    },
    ping: () => health.check(),
    async close() {
      if (!db.isOpen) return;
      try {
        // Lets the planner keep statistics for the expression indexes fresh across restarts.
        db.exec('PRAGMA optimize');
      } catch {
        // A full disk or read-only file: the statistics wait for the next close; the file still closes.
      } finally {
        db.close();
      }
    },
  };
}
