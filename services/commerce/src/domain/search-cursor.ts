import { createHash } from 'node:crypto';

/**
 * An offer search's cursor carries a digest of the filters it was issued with: reused with other
 * filters it would resume after its price and silently skip cheaper matches of the new ones, so
 * it is refused instead (`belongsTo` false). A cursor issued before digests were added is taken
 * as it is.
 */
const SEPARATOR = '.';

/** The same filters in any order of keys or list items give the same digest. */
export function filtersDigest(status: string, filters: Record<string, unknown>): string {
  const canonical = Object.keys(filters)
    .filter((key) => filters[key] !== undefined)
    .sort()
    .map((key) => {
      const value = filters[key];
      return [key, Array.isArray(value) ? [...value].map(String).sort() : value];
    });
  return createHash('sha256')
    .update(JSON.stringify([status, canonical]))
    .digest('base64url')
    .slice(0, 12);
}

export const withDigest = (digest: string, storeCursor: string | null): string | null =>
  storeCursor === null ? null : `${digest}${SEPARATOR}${storeCursor}`;

/** The store's cursor inside `cursor`, or null when the cursor was issued for other filters. */
export function storeCursorOf(cursor: string, digest: string): string | null {
  const at = cursor.indexOf(SEPARATOR);
  if (at < 0) return cursor;
  return cursor.slice(0, at) === digest ? cursor.slice(at + 1) : null;
}
