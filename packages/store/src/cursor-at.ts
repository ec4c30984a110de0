import { encodeCursor } from './cursor.ts';
import { getPath } from './names.ts';
import { normalizeQuery } from './normalize-query.ts';
import type { Doc, Query } from './types.ts';

/**
 * The cursor that resumes `query` right after `doc`: what the store would have returned had the
 * page ended there. A caller that fetched more rows than it hands out (filtering some away)
 * gives its own page an exact cursor with it.
 */
export function cursorAt(query: Query, doc: Doc, id: string): string {
  const { order, where } = normalizeQuery({ ...query, cursor: null, offset: 0 });
  return encodeCursor({ values: order.map((o) => getPath(doc, o.field)), id }, where);
}
