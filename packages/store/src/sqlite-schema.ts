import type { DatabaseSync } from 'node:sqlite';
import { builtOn } from './index-scope.ts';
import { assertCollectionOptions } from './names.ts';
import { arrayTable, elementKey, quoteIdent, valueExpr } from './sqlite-expr.ts';
import { ensureWalkTables, type WalkIndex } from './sqlite-walk.ts';
import type { CollectionOptions } from './types.ts';

/** Registry of array fields each collection maintains, shared by every process on the file. */
const ARRAY_FIELDS_TABLE = '_store_array_fields';

/** Name of the expression index for a declared index (used by tests reading query plans). */
export function sqliteIndexName(collection: string, fields: readonly string[]): string {
  return `${collection}__by_${fields.map((f) => f.replaceAll('.', '_')).join('_')}`;
}

/**
 * Creates (idempotently) the collection table, its declared expression indexes and the array
 * side table. Must run inside a write transaction: backfilling a newly declared array field and
 * registering it have to be atomic with respect to concurrent writers.
 * Returns every array field and walk table maintained for the collection (this and earlier
 * declarations).
 */
export function ensureCollectionSchema(
  db: DatabaseSync,
  name: string,
  options: CollectionOptions,
): { arrayFields: Set<string>; walks: WalkIndex[] } {
  assertCollectionOptions(options);
  const table = quoteIdent(name);
  const arr = quoteIdent(arrayTable(name));
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
  // WITHOUT ROWID: the primary key is the (field, value, id) index array-contains queries use.
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${arr} (field TEXT NOT NULL, value TEXT NOT NULL, id TEXT NOT NULL,` +
      ' PRIMARY KEY (field, value, id)) WITHOUT ROWID',
  );
  // Every write replaces a document's elements by id, which needs its own index.
  db.exec(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${arrayTable(name)}_id`)} ON ${arr} (id)`);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${ARRAY_FIELDS_TABLE} (coll TEXT NOT NULL, field TEXT NOT NULL,` +
      ' PRIMARY KEY (coll, field)) WITHOUT ROWID',
  );

  const declaredArrays = options.arrayFields ?? [];
  // The collection's expression indexes as built: their SQL tells a partial (sparse) one apart.
  const built = new Map(
    db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE ?")
      .all(name, `${name}__by_%`)
      .map((row) => [String(row.name), String(row.sql)]),
  );
  const wanted = new Set<string>();
  for (const spec of options.indexes ?? []) {
    if (!builtOn(spec, 'sqlite')) continue;
    // Array fields in an index Firestore cannot have: a walk table (sqlite-walk.ts) instead.
    if (spec.embeddedOnly && spec.fields.some((f) => declaredArrays.includes(f))) continue;
    // Array fields are served by the side table; scalar fields go into one expression index,
    // in declared order, with id last so `ORDER BY <last field>, id` comes straight off it.
    const scalar = spec.fields.filter((f) => !declaredArrays.includes(f));
    if (scalar.length === 0) continue;
    const columns = [...scalar.map(valueExpr), 'id'].join(', ');
    const index = sqliteIndexName(name, scalar);
    wanted.add(index);
    const partial = spec.sparse ? ` WHERE ${valueExpr(scalar[0]!)} IS NOT NULL` : '';
    // An index declared sparse since it was built (or no longer) is built again the new way.
    const sql = built.get(index);
    if (sql !== undefined && sql.includes(' WHERE ') !== Boolean(spec.sparse))
      db.exec(`DROP INDEX ${quoteIdent(index)}`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${quoteIdent(index)} ON ${table} (${columns})${partial}`);
  }
  // An index a previous version declared and this one no longer does only slows every write.
  if (options.indexes)
    for (const index of built.keys())
      if (!wanted.has(index)) db.exec(`DROP INDEX IF EXISTS ${quoteIdent(index)}`);

  const register = db.prepare(`INSERT OR IGNORE INTO ${ARRAY_FIELDS_TABLE} (coll, field) VALUES (?, ?)`);
  for (const field of declaredArrays) {
    if (register.run(name, field).changes > 0) backfillArrayField(db, name, field);
  }
  const rows = db.prepare(`SELECT field FROM ${ARRAY_FIELDS_TABLE} WHERE coll = ?`).all(name);
  const arrayFields = new Set(rows.map((r) => String(r.field)));
  return { arrayFields, walks: ensureWalkTables(db, name, options.indexes, arrayFields) };
}

/** A field declared after documents exist: index the elements already stored. */
function backfillArrayField(db: DatabaseSync, name: string, field: string): void {
  const rows = db
    .prepare(
      `SELECT id, ${valueExpr(field)} AS v FROM ${quoteIdent(name)} WHERE json_type(doc, '$.${field}') = 'array'`,
    )
    .all();
  const insert = db.prepare(
    `INSERT OR IGNORE INTO ${quoteIdent(arrayTable(name))} (field, value, id) VALUES (?, ?, ?)`,
  );
  for (const row of rows) {
    for (const element of JSON.parse(String(row.v)) as unknown[])
      insert.run(field, elementKey(element), String(row.id));
  }
}
