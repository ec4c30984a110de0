/**
 * Value ordering for the in-memory backend, modelled on Firestore's: values of different types
 * order by type (null < boolean < number < string < array < map), and within a type naturally.
 * Range filters only ever match values of the filter value's own type.
 */

export function typeRank(value: unknown): number {
  if (value === null) return 0;
  switch (typeof value) {
    case 'boolean':
      return 1;
    case 'number':
      return 2;
    case 'string':
      return 3;
    default:
      return Array.isArray(value) ? 4 : 5;
  }
}

// Characters from U+D800 up are where UTF-16 code-unit order and UTF-8 byte order (what SQLite
// and Firestore use) disagree; everything below compares the same either way.
const NEEDS_BYTE_ORDER = /[\uD800-\uFFFF]/;

export function compareStrings(a: string, b: string): number {
  if (NEEDS_BYTE_ORDER.test(a) || NEEDS_BYTE_ORDER.test(b)) {
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareValues(a: unknown, b: unknown): number {
  const rankDiff = typeRank(a) - typeRank(b);
  if (rankDiff !== 0) return Math.sign(rankDiff);
  if (typeof a === 'boolean' || typeof a === 'number') {
    return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  }
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (Array.isArray(a)) return compareLists(a, b as unknown[]);
  if (a === null) return 0;
  return compareMaps(a as Record<string, unknown>, b as Record<string, unknown>);
}

function compareLists(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ak = Object.keys(a).sort(compareStrings);
  const bk = Object.keys(b).sort(compareStrings);
  for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
    const keyA = ak[i]!;
    const keyB = bk[i]!;
    const c = compareStrings(keyA, keyB) || compareValues(a[keyA], b[keyB]);
    if (c !== 0) return c;
  }
  return Math.sign(ak.length - bk.length);
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  // Two strings are equal exactly when their code units are: no byte-order comparison needed
  // (an array-contains on words tests every word of every candidate).
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return compareValues(a, b) === 0;
}

/** Range operators compare only within one type, as Firestore does. */
export function sameType(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b);
}
