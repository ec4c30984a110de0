import type { Collection, Doc, Query } from './types.ts';

/**
 * Every document a query matches, fetched page by page with the stable cursor (for lists that
 * are small per household but unbounded in principle: members' households, a mission's artifacts).
 */
export async function queryAll<T extends Doc>(
  collection: Collection<T>,
  query: Omit<Query, 'cursor' | 'limit' | 'offset'>,
  pageSize = 200,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  do {
    const page = await collection.query({ ...query, limit: pageSize, cursor });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
