import { createHash } from 'node:crypto';
import { StoreQueryError, type Where } from './types.ts';

/**
 * Page cursors are opaque to callers: base64url JSON of the last row's order values plus its id,
 * and a digest of the query's equality filters. Every backend resumes strictly after that
 * (values..., id) position, so paging is stable while rows are inserted or deleted between pages;
 * the digest makes a cursor from another list (another household's, another status's) an invalid
 * one rather than a position to resume from.
 */
export interface CursorPosition {
  values: unknown[];
  id: string;
}

export function encodeCursor(position: CursorPosition, where: readonly Where[]): string {
  return Buffer.from(JSON.stringify([position.values, position.id, scopeOf(where)]), 'utf8').toString(
    'base64url',
  );
}

/**
 * Which list a cursor pages: its equality filters (the household, a status, an owner). Ranges
 * are left out: a caller may move one between pages (a "not expired yet" bound on the clock).
 */
function scopeOf(where: readonly Where[]): string {
  const equal = where
    .filter(([, op]) => op === '==')
    .map(([field, , value]) => JSON.stringify([field, value]))
    .sort();
  return createHash('sha256').update(equal.join('\n')).digest('base64url').slice(0, 12);
}

export function decodeCursor(
  cursor: string,
  orderFieldCount: number,
  where: readonly Where[],
): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new StoreQueryError('Invalid cursor');
  }
  // Two elements: a cursor issued before the digest existed (a client paging across an upgrade),
  // taken as it was then.
  if (!Array.isArray(parsed) || (parsed.length !== 2 && parsed.length !== 3))
    throw new StoreQueryError('Invalid cursor');
  const [values, id, scope] = parsed as [unknown, unknown, unknown];
  // A cursor from a query with a different ordering would silently skip or repeat rows.
  if (!Array.isArray(values) || values.length !== orderFieldCount || typeof id !== 'string') {
    throw new StoreQueryError('Cursor does not belong to this query');
  }
  if (parsed.length === 3 && scope !== scopeOf(where))
    throw new StoreQueryError('Cursor does not belong to this query');
  return { values, id };
}
