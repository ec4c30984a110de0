import { StoreQueryError } from './types.ts';

/**
 * Page cursors are opaque to callers: base64url JSON of the last row's order values plus its id.
 * Every backend resumes strictly after that (values..., id) position, so paging is stable while
 * rows are inserted or deleted between pages.
 */
export interface CursorPosition {
  values: unknown[];
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.values, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, orderFieldCount: number): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new StoreQueryError('Invalid cursor');
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw new StoreQueryError('Invalid cursor');
  const [values, id] = parsed as [unknown, unknown];
  // A cursor from a query with a different ordering would silently skip or repeat rows.
  if (!Array.isArray(values) || values.length !== orderFieldCount || typeof id !== 'string') {
    throw new StoreQueryError('Cursor does not belong to this query');
  }
  return { values, id };
}
