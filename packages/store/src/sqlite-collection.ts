import type { StatementSync } from 'node:sqlite';
import { encodeCursor } from './cursor.ts';
import { getPath } from './names.ts';
import { normalizeQuery, normalizeWhere } from './normalize-query.ts';
import { arrayTable, elementKey, quoteIdent } from './sqlite-expr.ts';
import { buildCount, buildNullsAfter, buildSelect, buildWalkSelect } from './sqlite-sql.ts';
import { pickWalk, syncWalkRows, type WalkIndex } from './sqlite-walk.ts';
import { ABORT, type Collection, type Doc, StoreConflictError } from './types.ts';

/** What a collection needs from its database: cached statements and write transactions. */
export interface SqliteHandle {
  statement(sql: string): StatementSync;
  /**
   * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so a
   * read-then-write cannot fail halfway on lock upgrade, and other processes on the same file
   * wait (busy_timeout) instead of interleaving.
   */
  transaction<R>(fn: () => R): R;
}

export function sqliteCollection<T extends Doc>(
  h: SqliteHandle,
  name: string,
  arrayFields: ReadonlySet<string>,
  /** The collection's walk tables now (another connection may have added or dropped one). */
  walks: () => readonly WalkIndex[],
): Collection<T> {
  const table = quoteIdent(name);
  const arr = quoteIdent(arrayTable(name));
  const parse = (json: unknown): T => JSON.parse(String(json)) as T;
  const read = (id: string): string | null => {
    const row = h.statement(`SELECT doc FROM ${table} WHERE id = ?`).get(id);
    return row ? String(row.doc) : null;
  };
  // Side-table and walk-table rows are rewritten with the document, in the same transaction.
  const syncArrays = (id: string, doc: Doc | null, current: readonly WalkIndex[]): void => {
    syncWalkRows(h.statement, current, id, doc);
    if (arrayFields.size === 0) return;
    h.statement(`DELETE FROM ${arr} WHERE id = ?`).run(id);
    if (!doc) return;
    const insert = h.statement(`INSERT OR IGNORE INTO ${arr} (field, value, id) VALUES (?, ?, ?)`);
    for (const field of arrayFields) {
      const value = getPath(doc, field);
      if (Array.isArray(value)) for (const element of value) insert.run(field, elementKey(element), id);
    }
  };
  const upsert = (id: string, json: string, current: readonly WalkIndex[]): void => {
    h.statement(
      `INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`,
    ).run(id, json);
    syncArrays(id, JSON.parse(json) as Doc, current);
  };
  const insertNew = (id: string, doc: T, current: readonly WalkIndex[]): void => {
    const json = JSON.stringify(doc);
    const { changes } = h
      .statement(`INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT DO NOTHING`)
      .run(id, json);
    if (changes === 0) throw new StoreConflictError(name, id);
    syncArrays(id, JSON.parse(json) as Doc, current);
  };
  const remove = (id: string, current: readonly WalkIndex[]): boolean => {
    const { changes } = h.statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
    syncArrays(id, null, current);
    return changes > 0;
  };
  // Single statements are atomic already; the transaction is only needed with side-table rows. The
  // walk tables are read once per write, inside it (not once per document of a batch).
  const atomic = <R>(fn: (current: readonly WalkIndex[]) => R, always = false): R =>
    always || arrayFields.size > 0 || walks().length > 0 ? h.transaction(() => fn(walks())) : fn([]);

  return {
    async get(id) {
      const json = read(id);
      return json === null ? null : parse(json);
    },
    async getMany(ids) {
      const rows = h
        .statement(`SELECT id, doc FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`)
        .all(JSON.stringify(ids));
      return new Map(rows.map((r) => [String(r.id), parse(r.doc)]));
    },
    async create(id, doc) {
      atomic((current) => insertNew(id, doc, current));
    },
    async createMany(entries, also) {
      if (entries.length === 0 && !also?.put?.length) return;
      atomic((current) => {
        for (const [id, doc] of entries) insertNew(id, doc, current);
        for (const [id, doc] of also?.put ?? []) upsert(id, JSON.stringify(doc), current);
      }, true);
    },
    async put(id, doc) {
      atomic((current) => upsert(id, JSON.stringify(doc), current));
    },
    async delete(id) {
      return atomic((current) => remove(id, current));
    },
    async update(id, mutate) {
      return atomic((current) => {
        const json = read(id);
        const result = mutate(json === null ? null : parse(json));
        if (result === ABORT) return { doc: json === null ? null : parse(json), changed: false };
        if (result === null) return { doc: null, changed: json !== null && remove(id, current) };
        const next = JSON.stringify(result);
        upsert(id, next, current);
        return { doc: parse(next), changed: true };
      }, true);
    },
    async query(query) {
      const q = normalizeQuery(query);
      const walk = pickWalk(walks(), q);
      const { sql, params } = walk
        ? buildWalkSelect(name, arrayFields, q, walk)
        : buildSelect(name, arrayFields, q);
      const rows = h.statement(sql).all(...params);
      const missing = q.limit === undefined ? -1 : q.limit + 1 - rows.length;
      // A descending page after a cursor seeks past it leaving out the nulls, which come last.
      const nulls = walk || missing === 0 ? null : buildNullsAfter(name, arrayFields, q, missing);
      if (nulls) rows.push(...h.statement(nulls.sql).all(...nulls.params));
      const more = q.limit !== undefined && rows.length > q.limit;
      const items = (more ? rows.slice(0, q.limit) : rows).map((r) => parse(r.doc));
      const lastRow = more ? rows[q.limit! - 1] : undefined;
      const last = items.at(-1);
      const nextCursor =
        lastRow && last
          ? encodeCursor(
              { values: q.order.map((o) => getPath(last, o.field)), id: String(lastRow.id) },
              q.where,
            )
          : null;
      return { items, nextCursor };
    },
    async count(where) {
      const { sql, params } = buildCount(name, arrayFields, normalizeWhere(where));
      return Number(h.statement(sql).get(...params)?.n ?? 0);
    },
  };
}
