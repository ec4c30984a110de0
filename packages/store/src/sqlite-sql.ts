import type { SQLInputValue } from 'node:sqlite';
import type { NormalizedQuery } from './normalize-query.ts';
import type { Where } from './types.ts';

/**
 * Translates normalized queries to SQL over `(id, doc)` tables. Field paths are validated
 * identifiers, so they are inlined: expression indexes only match a literal json path.
 *
 * Type correctness: json_extract maps JSON booleans to 0/1 and arrays/objects to JSON text, so
 * every comparison is paired with a json_type() check; range bounds get an extra `< ''` or
 * `>= ''` term (SQLite orders numbers < text) so the index range excludes other types too.
 */
export interface Sql {
  sql: string;
  params: SQLInputValue[];
}

export const quoteIdent = (name: string): string => `"${name}"`;
export const valueExpr = (field: string): string => `json_extract(doc, '$.${field}')`;
const typeExpr = (field: string): string => `json_type(doc, '$.${field}')`;
export const arrayTable = (table: string): string => `${table}__arr`;

/** How an array element or cursor value is stored/bound: JSON text for the side table. */
export const elementKey = (value: unknown): string => JSON.stringify(value);

export function toSqlValue(value: unknown): SQLInputValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return JSON.stringify(value);
}

function typedEquals(val: string, type: string, value: unknown): Sql {
  if (value === null) return { sql: `${type} = 'null'`, params: [] };
  return { sql: `(${val} = ? AND ${type} IN (${sqlTypesOf(value)}))`, params: [toSqlValue(value)] };
}

function sqlTypesOf(value: unknown): string {
  switch (typeof value) {
    case 'boolean':
      return value ? `'true'` : `'false'`;
    case 'number':
      return `'integer','real'`;
    case 'string':
      return `'text'`;
    default:
      return Array.isArray(value) ? `'array'` : `'object'`;
  }
}

function range(field: string, op: string, value: unknown): Sql {
  const val = valueExpr(field);
  const types = typeof value === 'boolean' ? `'true','false'` : sqlTypesOf(value);
  const lower = op === '>' || op === '>=';
  let bound = '';
  if (typeof value === 'number' && lower) bound = ` AND ${val} < ''`;
  if (typeof value === 'string' && !lower) bound = ` AND ${val} >= ''`;
  return {
    sql: `(${val} ${op} ?${bound} AND ${typeExpr(field)} IN (${types}))`,
    params: [toSqlValue(value)],
  };
}

function anyOf(parts: Sql[]): Sql {
  if (parts.length === 0) return { sql: '0', params: [] };
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

/** `in`: one IN list per scalar type so an index can serve it; nulls never match (Firestore). */
function inList(field: string, values: readonly unknown[]): Sql {
  const parts: Sql[] = [];
  for (const kind of ['string', 'number'] as const) {
    const same = values.filter((v) => typeof v === kind);
    if (same.length === 0) continue;
    parts.push({
      sql: `(${valueExpr(field)} IN (${same.map(() => '?').join(',')}) AND ${typeExpr(field)} IN (${sqlTypesOf(same[0])}))`,
      params: same as SQLInputValue[],
    });
  }
  for (const v of values) {
    if (v !== null && typeof v !== 'string' && typeof v !== 'number') {
      parts.push(typedEquals(valueExpr(field), typeExpr(field), v));
    }
  }
  return anyOf(parts);
}

/**
 * How an array-contains filter on a declared array field is joined to the main table.
 * `exists`: probe the side table's primary key per candidate row; right when another filter
 * already narrows the rows through an expression index. `in`: let the side table drive the
 * lookup; right when array filters are all there is (otherwise SQLite would scan the table).
 */
export type ArrayJoin = 'exists' | 'in';

function arrayContains(
  table: string,
  field: string,
  values: readonly unknown[],
  join: ArrayJoin | null,
): Sql {
  const list = values.map(() => '?').join(',');
  const side = quoteIdent(arrayTable(table));
  if (join === 'exists') {
    return {
      sql: `EXISTS (SELECT 1 FROM ${side} AS a WHERE a.field = ? AND a.value IN (${list}) AND a.id = t.id)`,
      params: [field, ...values.map(elementKey)],
    };
  }
  if (join === 'in') {
    return {
      sql: `t.id IN (SELECT a.id FROM ${side} AS a WHERE a.field = ? AND a.value IN (${list}))`,
      params: [field, ...values.map(elementKey)],
    };
  }
  // Undeclared array field: still correct, but has to look inside every candidate row.
  const match = anyOf(values.map((v) => typedEquals('je.value', 'je.type', v)));
  return {
    sql: `(${typeExpr(field)} = 'array' AND EXISTS (SELECT 1 FROM json_each(t.doc, '$.${field}') AS je WHERE ${match.sql}))`,
    params: match.params,
  };
}

const NARROWING_OPS: ReadonlySet<string> = new Set(['==', 'in', '<', '<=', '>', '>=']);

export function wherePredicates(
  table: string,
  arrayFields: ReadonlySet<string>,
  where: readonly Where[],
): Sql[] {
  const narrowed = where.some(([field, op]) => NARROWING_OPS.has(op) && !arrayFields.has(field));
  const join: ArrayJoin = narrowed ? 'exists' : 'in';
  return where.map((w) => predicate(table, w, arrayFields.has(w[0]) ? join : null));
}

function predicate(table: string, [field, op, value]: Where, join: ArrayJoin | null): Sql {
  switch (op) {
    case '==':
      return typedEquals(valueExpr(field), typeExpr(field), value);
    case '!=': {
      const eq = typedEquals(valueExpr(field), typeExpr(field), value);
      return { sql: `(${typeExpr(field)} <> 'null' AND NOT ${eq.sql})`, params: eq.params };
    }
    case 'in':
      return inList(field, value as unknown[]);
    case 'array-contains':
      return arrayContains(table, field, [value], join);
    case 'array-contains-any':
      return arrayContains(table, field, value as unknown[], join);
    default:
      return range(field, op, value);
  }
}

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
