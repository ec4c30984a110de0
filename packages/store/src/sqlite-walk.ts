import type { DatabaseSync } from 'node:sqlite';
import { documentKeys, queryKeys } from './index-keys.ts';
import { builtOn } from './index-scope.ts';
import { getPath } from './names.ts';
import { type NormalizedQuery, RANGE_OPS } from './normalize-query.ts';
import { elementKey, quoteIdent, type Sql, toSqlValue } from './sqlite-expr.ts';
import type { Doc, IndexSpec, Where } from './types.ts';

/*
 * Walk tables: sqlite's version of an index over several array fields (an `embeddedOnly` index
 * spec). The side table answers "does this row hold that element" one probe per candidate row,
 * so a search whose filters are each loose but together narrow (a kind, in a colour, for a
 * season, under a price) probes thousands of rows for a page. A walk table holds one row per
 * combination of the prefix fields' values (one per element of an array field) with the
 * ordered field's value, indexed (key, value, id): the query walks just the documents matching
 * every prefix filter, already in order, and stops at its page, as the in-memory index does.
 */

/** Walk tables each collection maintains, shared by every process on the file. */
const REGISTRY = '_store_walk_indexes';
/** More key combinations than this (array-contains-any on two fields) is left to the plain query. */
const MAX_KEYS = 100;

export interface WalkIndex {
  table: string;
  prefix: readonly string[];
  last: string;
  /**
   * The collection's array fields when the rows were written: a prefix field among them has a row
   * per element, and the others' elements are carried in `a`. Every writer writes with these,
   * whatever its own view, so the rows never mix layouts; a declaration that changes the array
   * fields rewrites the rows.
   */
  arrays: ReadonlySet<string>;
  /** The array fields whose elements each row carries (`a`): the arrays outside the prefix. */
  elements: readonly string[];
}

export const walkTableName = (collection: string, fields: readonly string[]): string =>
  `${collection}__walk_${fields.map((f) => f.replaceAll('.', '_')).join('_')}`;

/**
 * A key column cannot be NULL, so JSON null is kept as -Infinity (no JSON number is): it sorts
 * before every number as SQL NULL does, and its type column keeps it apart from numbers.
 */
export const WALK_NULL = Number.NEGATIVE_INFINITY;
const walkValue = (value: unknown): string | number => {
  const v = toSqlValue(value);
  return v === null ? WALK_NULL : (v as string | number);
};

/** A value's JSON type, kept beside it so range filters stay type-exact (Firestore semantics). */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Creates (idempotently) the walk tables the declared indexes ask for, fills a new one from the
 * documents already stored, and drops those no longer declared. Runs inside the schema's write
 * transaction. Returns every walk table the collection keeps.
 */
export function ensureWalkTables(
  db: DatabaseSync,
  collection: string,
  specs: readonly IndexSpec[] | undefined,
  arrayFields: ReadonlySet<string>,
): WalkIndex[] {
  const declared = (specs ?? []).filter(
    (s) => builtOn(s, 'sqlite') && s.embeddedOnly && s.fields.some((f) => arrayFields.has(f)),
  );
  // A file whose collections never declare one carries no registry (nothing to create at boot).
  if (declared.length > 0)
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${REGISTRY} (coll TEXT NOT NULL, name TEXT NOT NULL, fields TEXT NOT NULL,` +
        ' arrays TEXT NOT NULL, PRIMARY KEY (coll, name)) WITHOUT ROWID',
    );
  const registered = new Map(loadWalks(db, collection).map((w) => [w.table, w]));
  const arrays = JSON.stringify([...arrayFields].sort());
  for (const spec of declared) {
    const walk = toWalk(collection, spec.fields, arrayFields);
    const table = quoteIdent(walk.table);
    // The table is its own (key, value, id) index, and carries each row's value type and the other
    // arrays' elements beside it: the walk reads them in order from the same pages, and looks up
    // only the documents it keeps.
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (k TEXT NOT NULL, v NOT NULL, id TEXT NOT NULL, t TEXT NOT NULL,` +
        ' a TEXT NOT NULL, PRIMARY KEY (k, v, id)) WITHOUT ROWID',
    );
    db.exec(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${walk.table}_id`)} ON ${table} (id)`);
    const known = registered.get(walk.table);
    // New, or the array fields changed since its rows were written.
    if (!known || JSON.stringify([...known.arrays].sort()) !== arrays) {
      db.exec(`DELETE FROM ${table}`);
      const rows = db.prepare(`SELECT id, doc FROM ${quoteIdent(collection)}`).all();
      for (const row of rows) writeWalkRows(db, walk, String(row.id), JSON.parse(String(row.doc)));
      db.prepare(`INSERT OR REPLACE INTO ${REGISTRY} (coll, name, fields, arrays) VALUES (?, ?, ?, ?)`).run(
        collection,
        walk.table,
        JSON.stringify(spec.fields),
        arrays,
      );
      registered.set(walk.table, walk);
    }
  }
  for (const name of registered.keys()) {
    // A walk table a previous version declared and this one no longer does only slows every write.
    // Other connections notice the schema change and stop using it (see sqlite-store.ts).
    if (specs && !declared.some((s) => walkTableName(collection, s.fields) === name)) {
      db.exec(`DROP TABLE IF EXISTS ${quoteIdent(name)}`);
      db.prepare(`DELETE FROM ${REGISTRY} WHERE coll = ? AND name = ?`).run(collection, name);
      registered.delete(name);
    }
  }
  return [...registered.values()];
}

/** The walk tables registered for a collection, as their rows were written. */
export function loadWalks(db: DatabaseSync, collection: string): WalkIndex[] {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(REGISTRY);
  if (!exists) return [];
  return db
    .prepare(`SELECT fields, arrays FROM ${REGISTRY} WHERE coll = ?`)
    .all(collection)
    .map((row) =>
      toWalk(
        collection,
        JSON.parse(String(row.fields)) as string[],
        new Set(JSON.parse(String(row.arrays)) as string[]),
      ),
    );
}

function toWalk(collection: string, fields: readonly string[], arrays: ReadonlySet<string>): WalkIndex {
  const prefix = fields.slice(0, -1);
  const elements = [...arrays].filter((f) => !prefix.includes(f)).sort();
  return { table: walkTableName(collection, fields), prefix, last: fields.at(-1)!, arrays, elements };
}

/*
 * Each walk row also carries the document's elements of the array fields outside the prefix
 * (`a`: "\x1f<field>\x1e<element JSON>\x1f..."), so an array-contains on one of them (a search's
 * word) is checked on the walked row itself: the walk reads consecutive index entries instead of
 * probing the side table once per row, a random page each at 100k documents. JSON text escapes
 * control characters, so an element can never contain a separator.
 */
const ELEMENT = '\x1f';
const FIELD = '\x1e';
const elementNeedle = (field: string, element: unknown) =>
  `${ELEMENT}${field}${FIELD}${elementKey(element)}${ELEMENT}`;
/**
 * What `a` holds when the elements would not fit: a row stays within one b-tree page (SQLite
 * moves a WITHOUT ROWID row over about 1,000 bytes to overflow pages, 4 KB each), and a document
 * with many elements does not multiply its size by its number of rows. An offer with a 200-character
 * title in twenty colours for every season had 160 rows of 1.5 KB each, stored as 750 KB: one bulk
 * write of 500 such offers grew the file by 380 MB and blocked the service for 5 s. Such a row's
 * elements are probed in the side table instead. (No field name is empty, so no needle matches it.)
 */
const ELEMENTS_LEFT_OUT = `${ELEMENT}${FIELD}${ELEMENT}`;
const MAX_ELEMENTS_LENGTH = 768;

function elementsOf(doc: Doc, walk: WalkIndex): string {
  let out = ELEMENT;
  for (const field of walk.elements) {
    const value = getPath(doc, field);
    if (!Array.isArray(value)) continue;
    for (const element of new Set(value.map(elementKey))) out += `${field}${FIELD}${element}${ELEMENT}`;
  }
  return out.length > MAX_ELEMENTS_LENGTH ? ELEMENTS_LEFT_OUT : out;
}

/** The rows a document contributes to a walk table. */
function writeWalkRows(
  db: { prepare(sql: string): { run(...params: (string | number | null)[]): unknown } },
  walk: WalkIndex,
  id: string,
  doc: Doc,
): void {
  const value = getPath(doc, walk.last);
  // Ordering by a field leaves out documents without it, as the plain query does.
  if (value === undefined) return;
  const insert = db.prepare(`INSERT INTO ${quoteIdent(walk.table)} (k, v, t, id, a) VALUES (?, ?, ?, ?, ?)`);
  const v = walkValue(value);
  const others = elementsOf(doc, walk);
  for (const key of documentKeys(doc, walk.prefix, walk.arrays))
    insert.run(key, v, jsonType(value), id, others);
}

/** Rewrites a document's rows in every walk table (null: the document is gone). */
export function syncWalkRows(
  statement: (sql: string) => { run(...params: (string | number | null)[]): unknown },
  walks: readonly WalkIndex[],
  id: string,
  doc: Doc | null,
): void {
  for (const walk of walks) {
    statement(`DELETE FROM ${quoteIdent(walk.table)} WHERE id = ?`).run(id);
    if (doc) writeWalkRows({ prepare: statement }, walk, id, doc);
  }
}

/** What a walk table answers of a query: its keys and the filters those keys guarantee. */
export interface WalkPlan {
  walk: WalkIndex;
  keys: string[];
  covered: ReadonlySet<Where>;
}

/**
 * The walk table serving a query, if one does: ordered by its last field alone, with an equality
 * (scalar field) or array-contains / array-contains-any (array field) filter on each prefix field.
 * The longest prefix wins: it narrows the most.
 */
export function pickWalk(walks: readonly WalkIndex[], q: NormalizedQuery): WalkPlan | null {
  if (q.order.length !== 1) return null;
  let best: WalkPlan | null = null;
  for (const walk of walks) {
    if (walk.last !== q.order[0]!.field) continue;
    const wanted = queryKeys(q, walk.prefix, walk.arrays);
    if (!wanted || wanted.keys.length > MAX_KEYS) continue;
    if (!best || walk.prefix.length > best.walk.prefix.length) best = { walk, ...wanted };
  }
  return best;
}

/**
 * The walk's own filters: its keys, the array filters its rows' elements answer (a row whose
 * elements were left out asks the side table, through `probe`), and the range filters on the
 * ordered field (type-exact, as the plain query's are) so SQLite seeks to the range instead of
 * filtering the walk.
 */
export function walkFilters(
  plan: WalkPlan,
  q: NormalizedQuery,
  probe: (clause: Where) => Sql,
): { sql: Sql[]; covered: Set<Where> } {
  const covered = new Set(plan.covered);
  const sql: Sql[] = [{ sql: `w.k IN (${plan.keys.map(() => '?').join(',')})`, params: plan.keys }];
  for (const clause of q.where) {
    const [field, op, bound] = clause;
    const onElements =
      (op === 'array-contains' || op === 'array-contains-any') &&
      plan.walk.elements.includes(field) &&
      !covered.has(clause);
    if (onElements) {
      covered.add(clause);
      const wanted = op === 'array-contains' ? [bound] : (bound as unknown[]);
      const sideTable = probe(clause);
      sql.push({
        sql: `(${wanted.map(() => 'instr(w.a, ?) > 0').join(' OR ')} OR (w.a = ? AND ${sideTable.sql}))`,
        params: [
          ...wanted.map((element) => elementNeedle(field, element)),
          ELEMENTS_LEFT_OUT,
          ...sideTable.params,
        ],
      });
      continue;
    }
    if (field !== plan.walk.last || !RANGE_OPS.has(op)) continue;
    covered.add(clause);
    sql.push({ sql: `(w.v ${op} ? AND w.t = ?)`, params: [walkValue(bound), jsonType(bound)] });
  }
  return { sql, covered };
}
