import { type CursorPosition, decodeCursor } from './cursor.ts';
import { assertFieldPath } from './names.ts';
import { type Query, StoreQueryError, type Where, type WhereOp } from './types.ts';

export type Direction = 'asc' | 'desc';
export interface OrderTerm {
  field: string;
  direction: Direction;
}

/** A validated query in the form all three backends execute identically. */
export interface NormalizedQuery {
  where: readonly Where[];
  /** Effective ordering without the final `id asc` tie-breaker, which is always implied. */
  order: readonly OrderTerm[];
  limit: number | undefined;
  offset: number;
  after: CursorPosition | null;
}

export const RANGE_OPS: ReadonlySet<WhereOp> = new Set(['<', '<=', '>', '>=']);
/** Firestore orders results by inequality fields implicitly; we make that explicit everywhere. */
const INEQUALITY_OPS: ReadonlySet<WhereOp> = new Set(['<', '<=', '>', '>=', '!=']);
const ALL_OPS: ReadonlySet<string> = new Set([
  ...INEQUALITY_OPS,
  '==',
  'in',
  'array-contains',
  'array-contains-any',
]);
/** Firestore's limit on disjunctions; enforced everywhere so a query works on every backend. */
const MAX_LIST = 30;

export function normalizeWhere(where: readonly Where[] | undefined): readonly Where[] {
  for (const [field, op, value] of where ?? []) {
    assertFieldPath(field);
    if (!ALL_OPS.has(op)) throw new StoreQueryError(`Unknown operator ${JSON.stringify(op)}`);
    if (value === undefined) throw new StoreQueryError(`Filter on ${field} has no value`);
    if (RANGE_OPS.has(op) && !['number', 'string', 'boolean'].includes(typeof value)) {
      throw new StoreQueryError(`Operator ${op} needs a number, string or boolean (field ${field})`);
    }
    if ((op === 'in' || op === 'array-contains-any') && !isList(value)) {
      throw new StoreQueryError(`Operator ${op} needs a non-empty array of at most ${MAX_LIST} values`);
    }
  }
  return where ?? [];
}

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.length <= MAX_LIST;
}

/**
 * Effective order = explicit orderBy, then any inequality-filtered field not already ordered
 * (ascending), then id. This is what Firestore requires/does anyway; doing it on every backend
 * keeps results and cursors identical across backends.
 */
export function normalizeQuery(query: Query = {}): NormalizedQuery {
  const where = normalizeWhere(query.where);
  const order: OrderTerm[] = [];
  for (const { field, direction = 'asc' } of query.orderBy ?? []) {
    assertFieldPath(field);
    if (direction !== 'asc' && direction !== 'desc') throw new StoreQueryError(`Bad direction ${direction}`);
    if (!order.some((o) => o.field === field)) order.push({ field, direction });
  }
  for (const [field, op] of where) {
    if (INEQUALITY_OPS.has(op) && !order.some((o) => o.field === field))
      order.push({ field, direction: 'asc' });
  }
  const { limit, offset = 0, cursor } = query;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new StoreQueryError('limit must be a positive integer');
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw new StoreQueryError('offset must be a non-negative integer');
  if (cursor && offset > 0) throw new StoreQueryError('Use either cursor or offset, not both');
  const after = cursor ? decodeCursor(cursor, order.length, where) : null;
  return { where, order, limit, offset, after };
}
