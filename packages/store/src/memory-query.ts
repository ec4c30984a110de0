import { compareStrings, compareValues, sameType, valuesEqual } from './compare.ts';
import { encodeCursor } from './cursor.ts';
import { getPath } from './names.ts';
import type { NormalizedQuery } from './normalize-query.ts';
import type { Doc, Where } from './types.ts';

/** Filter semantics follow Firestore: a missing field never matches, `!=` and `in` skip nulls. */
export function matchesWhere(doc: Doc, [field, op, expected]: Where): boolean {
  return matchesValue(getPath(doc, field), op, expected);
}

/** Whether a field's value (undefined when the document lacks it) passes one filter. */
function matchesValue(value: unknown, op: Where[1], expected: unknown): boolean {
  if (value === undefined) return false;
  switch (op) {
    case '==':
      return valuesEqual(value, expected);
    case '!=':
      return value !== null && !valuesEqual(value, expected);
    case '<':
      return sameType(value, expected) && compareValues(value, expected) < 0;
    case '<=':
      return sameType(value, expected) && compareValues(value, expected) <= 0;
    case '>':
      return sameType(value, expected) && compareValues(value, expected) > 0;
    case '>=':
      return sameType(value, expected) && compareValues(value, expected) >= 0;
    case 'in':
      return (expected as unknown[]).some((e) => e !== null && valuesEqual(value, e));
    case 'array-contains':
      return Array.isArray(value) && value.some((v) => valuesEqual(v, expected));
    case 'array-contains-any':
      return (
        Array.isArray(value) && value.some((v) => (expected as unknown[]).some((e) => valuesEqual(v, e)))
      );
  }
}

export function matchesAll(doc: Doc, where: readonly Where[]): boolean {
  return where.every((w) => matchesWhere(doc, w));
}

interface Row {
  id: string;
  doc: Doc;
  key: unknown[];
}

/** Runs a normalized query over a snapshot of (id, doc) pairs; docs are returned as stored. */
export function runMemoryQuery(
  entries: Iterable<[string, Doc]>,
  q: NormalizedQuery,
): { docs: Doc[]; nextCursor: string | null } {
  const rows: Row[] = [];
  for (const [id, doc] of entries) {
    if (!matchesAll(doc, q.where)) continue;
    const key = q.order.map((o) => getPath(doc, o.field));
    // Ordering by a field drops documents without it (as Firestore does).
    if (key.some((v) => v === undefined)) continue;
    rows.push({ id, doc, key });
  }
  const compareRows = (a: { key: unknown[]; id: string }, b: { key: unknown[]; id: string }): number => {
    for (let i = 0; i < q.order.length; i++) {
      const c = compareValues(a.key[i], b.key[i]);
      if (c !== 0) return q.order[i]!.direction === 'desc' ? -c : c;
    }
    return compareStrings(a.id, b.id);
  };
  rows.sort(compareRows);
  const after = q.after;
  const start = after ? rows.filter((r) => compareRows(r, { key: after.values, id: after.id }) > 0) : rows;
  const end = q.limit === undefined ? undefined : q.offset + q.limit;
  const page = start.slice(q.offset, end);
  const last = page.at(-1);
  const more = end !== undefined && start.length > end;
  return {
    docs: page.map((r) => r.doc),
    nextCursor: more && last ? encodeCursor({ values: last.key, id: last.id }, q.where) : null,
  };
}

/**
 * Runs a normalized query over candidates already in the query's order (a memory index walk):
 * stops as soon as the page and the one row telling whether there is more are found.
 */
export function runOrderedQuery(
  candidates: Iterable<{ value: unknown; id: string; doc: Doc }>,
  q: NormalizedQuery,
  /** Filters every candidate satisfies already (the index's keys). */
  covered: ReadonlySet<Where> = new Set(),
): { docs: Doc[]; nextCursor: string | null } {
  const ordered = q.order[0]?.field;
  const remaining = q.where.filter((w) => !covered.has(w));
  // Filters on the ordered field test the entry's value: the document is not read for them.
  const onValue = remaining.filter(([field]) => field === ordered);
  const checks = remaining.filter(([field]) => field !== ordered);
  const desc = q.order[0]?.direction === 'desc';
  const after = q.after;
  const pastCursor = (value: unknown, id: string) => {
    if (!after) return true;
    const c = compareValues(value, after.values[0]);
    if (c !== 0) return desc ? c < 0 : c > 0;
    return compareStrings(id, after.id) > 0;
  };
  const wanted = q.limit === undefined ? Number.POSITIVE_INFINITY : q.offset + q.limit + 1;
  const beyond = pastRangeEnd(q);
  const rows: Row[] = [];
  for (const { value, id, doc } of candidates) {
    // The walk is in order: past the range's far end no later entry can match either.
    if (beyond(value)) break;
    if (!pastCursor(value, id)) continue;
    if (!onValue.every(([, op, expected]) => matchesValue(value, op, expected))) continue;
    if (!matchesAll(doc, checks)) continue;
    rows.push({ id, doc, key: [value] });
    if (rows.length >= wanted) break;
  }
  const end = q.limit === undefined ? undefined : q.offset + q.limit;
  const page = rows.slice(q.offset, end);
  const last = page.at(-1);
  const more = end !== undefined && rows.length > end;
  return {
    docs: page.map((r) => r.doc),
    nextCursor: more && last ? encodeCursor({ values: last.key, id: last.id }, q.where) : null,
  };
}

/**
 * Whether an ordered walk has passed the far end of the query's range filter on the ordered
 * field (`<=`/`<` walking up, `>=`/`>` walking down).
 */
function pastRangeEnd(q: NormalizedQuery): (value: unknown) => boolean {
  const field = q.order[0]?.field;
  const desc = q.order[0]?.direction === 'desc';
  const ends = q.where.filter(
    ([f, op]) => f === field && (desc ? op === '>=' || op === '>' : op === '<=' || op === '<'),
  );
  if (ends.length === 0) return () => false;
  return (value) =>
    ends.some(([, op, bound]) => {
      const c = compareValues(value, bound);
      return desc ? (op === '>=' ? c < 0 : c <= 0) : op === '<=' ? c > 0 : c >= 0;
    });
}
