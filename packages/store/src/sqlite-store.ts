import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { assertCollectionName } from './names.ts';
import { type SqliteHandle, sqliteCollection } from './sqlite-collection.ts';
import { ensureCollectionSchema } from './sqlite-schema.ts';
import type { Collection, CollectionOptions, Doc, Store } from './types.ts';

const BUSY_TIMEOUT_MS = 5000;
const MAX_CACHED_STATEMENTS = 500;

/**
 * Per-process view of a collection's schema. Array fields are re-read from the file whenever a
 * new declaration arrives; a process that never declares a field another process added would not
 * maintain it, so every process of a service should declare its collections the same way.
 */
interface CollectionState {
  /** Shared by every handle on the collection so later declarations reach earlier handles. */
  arrayFields: Set<string>;
  declared: Set<string>;
}

/** One SQLite file per service; WAL so readers never block on the writer. */
export function createSqliteStore(file: string): Store {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');

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
        db.exec('ROLLBACK');
        throw err;
      }
    },
  };

  const states = new Map<string, CollectionState>();
  return {
    backend: 'sqlite',
    collection<T extends Doc>(name: string, options: CollectionOptions = {}): Collection<T> {
      assertCollectionName(name);
      let state = states.get(name);
      if (!state) {
        state = { arrayFields: new Set(), declared: new Set() };
        states.set(name, state);
      }
      const key = JSON.stringify(options);
      if (!state.declared.has(key)) {
        const fields = handle.transaction(() => ensureCollectionSchema(db, name, options));
        for (const field of fields) state.arrayFields.add(field);
        state.declared.add(key);
      }
      return sqliteCollection<T>(handle, name, state.arrayFields);
    },
    async ping() {
      try {
        db.prepare('SELECT 1').get();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (!db.isOpen) return;
      // Lets the planner keep statistics for the expression indexes fresh across restarts.
      db.exec('PRAGMA optimize');
      db.close();
    },
  };
}
