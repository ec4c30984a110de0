import type { NormalizedQuery } from './normalize-query.ts';
import { quoteIdent, type Sql, toSqlValue, typeExpr, valueExpr } from './sqlite-expr.ts';
import { wherePredicates } from './sqlite-filters.ts';
import type { Where } from './types.ts';

/** Page and count statements for a normalized query (see sqlite-filters.ts for the filters). */

/** Rows strictly after the cursor in (order..., id asc) order; NULL sorts first in SQLite. */
function afterCursor(q: NormalizedQuery): Sql | null {
  const after = q.after;
  if (!after) return null;
  const build = (i: number): Sql => {
    const term = q.order[i];
    if (!term) return { sql: 't.id > ?', params: [after.id] };
    const expr = valueExpr(term.field);
    const v = toSqlValue(after.values[i]);
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
  const v0 = toSqlValue(after.values[0]);
  // Redundant lower bound on the leading order column so SQLite can seek instead of scan.
  if (first && first.direction === 'asc' && v0 !== null) {
    return { sql: `${valueExpr(first.field)} >= ? AND ${keyset.sql}`, params: [v0, ...keyset.params] };
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
