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

/** Rows strictly after the cursor in (order..., id asc) order; NULL sorts first in SQLite. */
function afterCursor(q: NormalizedQuery, columns: CursorColumns = DOC_COLUMNS): Sql | null {
  const after = q.after;
  if (!after) return null;
  const build = (i: number): Sql => {
    const term = q.order[i];
    if (!term) return { sql: `${columns.id} > ?`, params: [after.id] };
    const expr = columns.value(term.field);
    const v = sqlCursorValue(after.values[i], columns);
    const rest = build(i + 1);
    const asc = term.direction === 'asc';
    const beyond: Sql =
      v === null
        ? { sql: asc ? `${expr} IS NOT NULL` : '0', params: [] }
        : { sql: asc ? `${expr} > ?` : `(${expr} < ? OR ${expr} IS NULL)`, params: [v] };
    const same: Sql =
      v === null ? { sql: `${expr} IS NULL`, params: [] } : { sql: `${expr} = ?`, params: [v] };
    return {
      sql: `(${beyond.sql} OR (${same.sql} AND ${rest.sql}))`,
      params: [...beyond.params, ...same.params, ...rest.params],
    };
  };
  const keyset = build(0);
  const first = q.order[0];
  const v0 = sqlCursorValue(after.values[0], columns);
  // Redundant lower bound on the leading order column so SQLite can seek instead of scan.
  if (first && first.direction === 'asc' && v0 !== null) {
    return { sql: `${columns.value(first.field)} >= ? AND ${keyset.sql}`, params: [v0, ...keyset.params] };
  }
  return keyset;
}

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
  const where = whereClause(table, arrayFields, q);
  const order = [...q.order.map((o) => `${valueExpr(o.field)} ${o.direction.toUpperCase()}`), 't.id ASC'];
  return {
    sql: `SELECT t.id AS id, t.doc AS doc FROM ${quoteIdent(table)} AS t${where.sql} ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`,
    params: [...where.params, q.limit === undefined ? -1 : q.limit + 1, q.offset],
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
    params: [...parts.flatMap((p) => p.params), q.limit === undefined ? -1 : q.limit + 1, q.offset],
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
