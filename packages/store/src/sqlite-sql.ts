import type { CursorPosition } from './cursor.ts';
import type { NormalizedQuery } from './normalize-query.ts';
import { quoteIdent, type Sql, toSqlValue, typeExpr, valueExpr } from './sqlite-expr.ts';
import { wherePredicates } from './sqlite-filters.ts';
import { WALK_NULL, type WalkPlan, walkFilters } from './sqlite-walk.ts';
import type { Where } from './types.ts';

/** Page and count statements for a normalized query (see sqlite-filters.ts for the filters). */

/** Where the cursor's columns are read: the document, or a walk table's (value, id). */
interface CursorColumns {
  value(field: string): string;
  id: string;
  /** What JSON null is stored as, where it cannot be SQL NULL. */
  nullAs?: number;
}
const DOC_COLUMNS: CursorColumns = { value: valueExpr, id: 't.id' };
const WALK_COLUMNS: CursorColumns = { value: () => 'w.v', id: 'w.id', nullAs: WALK_NULL };

function sqlCursorValue(value: unknown, columns: CursorColumns) {
  const v = toSqlValue(value);
  return v === null && columns.nullAs !== undefined ? columns.nullAs : v;
}

/** Rows strictly after the cursor in (order[from]..., id asc) order; NULL sorts first in SQLite. */
function keysetFrom(q: NormalizedQuery, after: CursorPosition, columns: CursorColumns, from: number): Sql {
  const term = q.order[from];
  if (!term) return { sql: `${columns.id} > ?`, params: [after.id] };
  const expr = columns.value(term.field);
  const v = sqlCursorValue(after.values[from], columns);
  const rest = keysetFrom(q, after, columns, from + 1);
  const asc = term.direction === 'asc';
  const beyond: Sql =
    v === null
      ? { sql: asc ? `${expr} IS NOT NULL` : '0', params: [] }
      : { sql: asc ? `${expr} > ?` : `(${expr} < ? OR ${expr} IS NULL)`, params: [v] };
  const same: Sql = v === null ? { sql: `${expr} IS NULL`, params: [] } : { sql: `${expr} = ?`, params: [v] };
  return {
    sql: `(${beyond.sql} OR (${same.sql} AND ${rest.sql}))`,
    params: [...beyond.params, ...same.params, ...rest.params],
  };
}

/**
 * Rows strictly after the cursor, with a redundant bound on the leading order column so SQLite
 * seeks to the cursor instead of walking every row before it: `>=` ascending, `<=` descending.
 * The descending bound leaves out the column's NULLs, which come last walking down: the page
 * takes them from `buildNullsAfter` once the other rows run out (the walk tables have none).
 */
function afterCursor(q: NormalizedQuery, columns: CursorColumns = DOC_COLUMNS): Sql | null {
  const after = q.after;
  if (!after) return null;
  const keyset = keysetFrom(q, after, columns, 0);
  const first = q.order[0];
  const v0 = sqlCursorValue(after.values[0], columns);
  if (!first || v0 === null) return keyset;
  // With an offset too, the NULL rows' place in the page can't be told from a second query.
  if (first.direction === 'desc' && q.offset > 0 && columns !== WALK_COLUMNS) return keyset;
  const op = first.direction === 'asc' ? '>=' : '<=';
  return { sql: `${columns.value(first.field)} ${op} ? AND ${keyset.sql}`, params: [v0, ...keyset.params] };
}

/** A descending walk whose cursor sits among the leading column's NULLs: the rest of them is all that is left. */
const cursorAmongNulls = (q: NormalizedQuery): boolean =>
  q.order[0]?.direction === 'desc' && q.after !== null && q.after.values[0] === null;

export function whereClause(table: string, arrayFields: ReadonlySet<string>, q: NormalizedQuery): Sql {
  const parts = wherePredicates(table, arrayFields, q.where);
  // Ordering by a field drops documents without it (as Firestore does); JSON null stays.
  for (const o of q.order) parts.push({ sql: `${typeExpr(o.field)} IS NOT NULL`, params: [] });
  const keyset = afterCursor(q);
  if (keyset) parts.push(keyset);
  if (parts.length === 0) return { sql: '', params: [] };
  return { sql: ` WHERE ${parts.map((p) => p.sql).join(' AND ')}`, params: parts.flatMap((p) => p.params) };
}

/** The page query; fetches one extra row to learn whether there is a next page. */
export function buildSelect(table: string, arrayFields: ReadonlySet<string>, q: NormalizedQuery): Sql {
  if (cursorAmongNulls(q) && q.offset === 0) return nullRows(table, arrayFields, q, pageRows(q));
  const where = whereClause(table, arrayFields, q);
  const order = [...q.order.map((o) => `${valueExpr(o.field)} ${o.direction.toUpperCase()}`), 't.id ASC'];
  return {
    sql: `SELECT t.id AS id, t.doc AS doc FROM ${quoteIdent(table)} AS t${where.sql} ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`,
    params: [...where.params, pageRows(q), q.offset],
  };
}

/** The rows a page query asks for: the page and one more (-1: no limit). */
const pageRows = (q: NormalizedQuery): number => (q.limit === undefined ? -1 : q.limit + 1);

/**
 * The rows `buildSelect` leaves out of a descending page after a cursor, at most `limit`: those
 * whose leading order value is JSON null, which come after every other row. Null when there can
 * be none (no cursor, or a filter on the column that null never passes).
 */
export function buildNullsAfter(
  table: string,
  arrayFields: ReadonlySet<string>,
  q: NormalizedQuery,
  limit: number,
): Sql | null {
  const first = q.order[0];
  if (first?.direction !== 'desc' || !q.after || q.offset > 0 || cursorAmongNulls(q)) return null;
  const nullable = q.where.every(([f, op, v]) => f !== first.field || (op === '==' && v === null));
  return nullable ? nullRows(table, arrayFields, { ...q, after: null }, limit) : null;
}

/**
 * The rows whose leading order value is null, after the cursor when it sits among them. With the
 * leading column fixed, ordering by the other terms lets the index deliver the rows in order
 * instead of sorting every null row of the scope.
 */
function nullRows(table: string, arrayFields: ReadonlySet<string>, q: NormalizedQuery, limit: number): Sql {
  const parts = wherePredicates(table, arrayFields, q.where);
  for (const o of q.order) parts.push({ sql: `${typeExpr(o.field)} IS NOT NULL`, params: [] });
  parts.push({ sql: `${valueExpr(q.order[0]!.field)} IS NULL`, params: [] });
  if (q.after) parts.push(keysetFrom(q, q.after, DOC_COLUMNS, 1));
  const order = [
    ...q.order.slice(1).map((o) => `${valueExpr(o.field)} ${o.direction.toUpperCase()}`),
    't.id ASC',
  ];
  return {
    sql: `SELECT t.id AS id, t.doc AS doc FROM ${quoteIdent(table)} AS t WHERE ${parts.map((p) => p.sql).join(' AND ')} ORDER BY ${order.join(', ')} LIMIT ?`,
    params: [...parts.flatMap((p) => p.params), limit],
  };
}

/**
 * The page query walking a walk table (sqlite-walk.ts): its keys and range select the rows in
 * order, the other filters are checked on each walked document, and the walk stops at the page.
 */
export function buildWalkSelect(
  table: string,
  arrayFields: ReadonlySet<string>,
  q: NormalizedQuery,
  plan: WalkPlan,
): Sql {
  const own = walkFilters(plan, q, (clause) => wherePredicates(table, arrayFields, [clause], 'walk')[0]!);
  const rest = q.where.filter((w) => !own.covered.has(w));
  // The walk drives: array filters left over are probed per walked row, before its document is read.
  const parts = [...own.sql, ...wherePredicates(table, arrayFields, rest, 'walk')];
  const keyset = afterCursor(q, WALK_COLUMNS);
  if (keyset) parts.push(keyset);
  const direction = q.order[0]!.direction.toUpperCase();
  // One document sits under several keys when array-contains-any asks for several of its elements.
  const distinct = plan.keys.length > 1 ? 'DISTINCT ' : '';
  return {
    sql:
      `SELECT ${distinct}t.id AS id, t.doc AS doc, w.v AS v FROM ${quoteIdent(plan.walk.table)} AS w` +
      ` JOIN ${quoteIdent(table)} AS t ON t.id = w.id WHERE ${parts.map((p) => p.sql).join(' AND ')}` +
      ` ORDER BY w.v ${direction}, w.id ASC LIMIT ? OFFSET ?`,
    params: [...parts.flatMap((p) => p.params), pageRows(q), q.offset],
  };
}

export function buildCount(table: string, arrayFields: ReadonlySet<string>, where: readonly Where[]): Sql {
  const clause = whereClause(table, arrayFields, {
    where,
    order: [],
    limit: undefined,
    offset: 0,
    after: null,
  });
  return { sql: `SELECT count(*) AS n FROM ${quoteIdent(table)} AS t${clause.sql}`, params: clause.params };
}
