import { compareStrings, compareValues } from './compare.ts';
import { documentKeys, queryKeys } from './index-keys.ts';
import { getPath } from './names.ts';
import type { NormalizedQuery } from './normalize-query.ts';
import type { Doc, IndexSpec, Where } from './types.ts';

/**
 * The in-memory backend's version of a declared index: for every combination of the prefix
 * fields' values (each element of an array field), the documents sorted by the last field, then
 * id. A query whose equality / array-contains filters cover the prefix and which is ordered by
 * the last field walks one sorted list and stops at its page, instead of scanning and sorting
 * every document of every household.
 */
export type MemoryIndex = {
  readonly prefix: readonly string[];
  readonly last: string;
  add(id: string, doc: Doc): void;
  /** Adds documents not in the index yet, many at once (one sort and merge per list, not a splice each). */
  addNew(docs: ReadonlyArray<readonly [string, Doc]>): void;
  remove(id: string, doc: Doc): void;
  /**
   * The entries in the query's order for a query this index serves, and how many the lists
   * hold (to pick the smallest walk); null when it does not serve the query.
   */
  candidates(q: NormalizedQuery): IndexWalk | null;
};

/** One document in a sorted list: its value of the ordered field, its id, and the document itself
 * (a walk reads it without a lookup by id: at 100k documents that lookup is a cache miss). */
export type Entry = { value: unknown; id: string; doc: Doc };

/**
 * How many entries the lists hold (to pick the smallest walk), the filters every entry satisfies
 * by construction (the walk need not check them again), and the walk itself, in the query's order.
 */
export type IndexWalk = { size: number; covered: ReadonlySet<Where>; walk(): Iterable<Entry> };

/** Where an entry sorts: by value, then id. */
type Position = { value: unknown; id: string };

const compareEntries = (a: Position, b: Position) =>
  compareValues(a.value, b.value) || compareStrings(a.id, b.id);

/** Where `entry` goes (or is) in a sorted list. */
function position(list: readonly Entry[], entry: Position): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(list[mid]!, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the entry at `at` is the one at `entry`'s position (a cursor's own document, unmoved). */
const isAt = (list: readonly Entry[], at: number, entry: Position) =>
  at < list.length && compareEntries(list[at]!, entry) === 0;

/** Where the first entry with a value above `value` is (`orEqual`: at or above). */
function firstAbove(list: readonly Entry[], value: unknown, orEqual = false): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareValues(list[mid]!.value, value);
    if (orEqual ? c < 0 : c <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A document listed under more keys than this is left out of the index: an offer with a long
 * title in twenty colours for every season would be 8,000 entries of a (colour, season, word)
 * index, and one bulk write of 500 of them took 670 MB. Queries in its scope (the same values of
 * the prefix's equality fields, e.g. its household and status) then walk another index, or scan.
 */
const MAX_KEYS_PER_DOCUMENT = 256;
const NO_ARRAYS: ReadonlySet<string> = new Set();

export function createMemoryIndex(spec: IndexSpec, arrayFields: ReadonlySet<string>): MemoryIndex {
  const prefix = spec.fields.slice(0, -1);
  const last = spec.fields.at(-1)!;
  const lists = new Map<string, Entry[]>();
  const scalars = prefix.filter((f) => !arrayFields.has(f));
  /** The ids left out, by scope: the key of their equality fields' values. */
  const leftOut = new Map<string, Set<string>>();

  /** A document's keys; none when it is left out (which `leave` records or forgets). */
  const keysOf = (id: string, doc: Doc, leave: 'record' | 'forget' = 'record'): string[] => {
    const keys = documentKeys(doc, prefix, arrayFields);
    if (keys.length <= MAX_KEYS_PER_DOCUMENT) return keys;
    const scope = documentKeys(doc, scalars, NO_ARRAYS)[0]!;
    const ids = leftOut.get(scope) ?? new Set<string>();
    if (leave === 'record') leftOut.set(scope, ids.add(id));
    else if (ids.delete(id) && ids.size === 0) leftOut.delete(scope);
    return [];
  };

  return {
    prefix,
    last,
    add(id, doc) {
      const value = getPath(doc, last);
      // Ordering by a field leaves out documents without it, as a query would.
      if (value === undefined) return;
      const entry = { value, id, doc };
      for (const key of keysOf(id, doc)) {
        let list = lists.get(key);
        if (!list) {
          list = [];
          lists.set(key, list);
        }
        list.splice(position(list, entry), 0, entry);
      }
    },
    addNew(docs) {
      const added = new Map<string, Entry[]>();
      for (const [id, doc] of docs) {
        const value = getPath(doc, last);
        if (value === undefined) continue;
        const entry = { value, id, doc };
        for (const key of keysOf(id, doc)) {
          const list = added.get(key);
          if (list) list.push(entry);
          else added.set(key, [entry]);
        }
      }
      for (const [key, entries] of added) {
        entries.sort(compareEntries);
        const list = lists.get(key);
        lists.set(key, list ? mergeSorted(list, entries) : entries);
      }
    },
    remove(id, doc) {
      const value = getPath(doc, last);
      if (value === undefined) return;
      const entry = { value, id, doc };
      for (const key of keysOf(id, doc, 'forget')) {
        const list = lists.get(key);
        if (!list) continue;
        const at = position(list, entry);
        if (list[at]?.id === id) list.splice(at, 1);
        if (list.length === 0) lists.delete(key);
      }
    },
    candidates(q) {
      if (q.order.length !== 1 || q.order[0]!.field !== last) return null;
      // One list per combination of the values the query asks for (array-contains-any on an
      // array field asks for several).
      const wanted = queryKeys(q, prefix, arrayFields);
      if (!wanted) return null;
      // Documents of this scope are missing from the lists: the walk would skip them.
      if (leftOut.size > 0 && leftOut.has(queryKeys(q, scalars, NO_ARRAYS)?.keys[0] ?? '')) return null;
      const { keys, covered } = wanted;
      const found = keys
        .map((k) => lists.get(k))
        .filter((l): l is Entry[] => l !== undefined && l.length > 0);
      const size = found.reduce((n, l) => n + l.length, 0);
      // Lists are merged only for the index the store picks, when it walks.
      const walk = (): Iterable<Entry> => {
        const list = found.length === 1 ? found[0]! : mergeLists(found);
        // Start at the query's bound on the ordered field, or right after the cursor, instead of
        // walking up to it: a page deep into 100k entries costs what the first page does.
        if (q.order[0]!.direction === 'desc') return descendingFrom(list, q, last);
        const start = startEntry(q, last);
        if (!start) return list;
        const at = position(list, start.entry);
        return from(list, start.after && isAt(list, at, start.entry) ? at + 1 : at);
      };
      return { size, covered, walk };
    },
  };
}

/**
 * Where an ascending walk may start: after the cursor, or at the lower bound of a range filter
 * on the ordered field (entries below it cannot match), whichever is further.
 */
function startEntry(q: NormalizedQuery, field: string): { entry: Position; after: boolean } | null {
  let start: { entry: Position; after: boolean } | null = q.after
    ? { entry: { value: q.after.values[0], id: q.after.id }, after: true }
    : null;
  for (const [f, op, value] of q.where) {
    if (f !== field || (op !== '>=' && op !== '>')) continue;
    // The smallest id sorts first, so the walk starts at the first entry with this value.
    const bound = { entry: { value, id: '' }, after: false };
    if (!start || compareEntries(bound.entry, start.entry) > 0) start = bound;
  }
  return start;
}

/** Two sorted lists as one sorted list. */
function mergeSorted(a: readonly Entry[], b: readonly Entry[]): Entry[] {
  const out: Entry[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compareEntries(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/** The list from position `at` on, without copying it. */
function* from(list: readonly Entry[], at: number): Generator<Entry> {
  for (let i = at; i < list.length; i++) yield list[i]!;
}

/** Several sorted lists as one, each document once (it may sit in several of them). */
function mergeLists(lists: readonly Entry[][]): Entry[] {
  const merged = lists.flat().sort(compareEntries);
  // A document has one value, so its copies sort next to each other.
  return merged.filter((e, i) => i === 0 || e.id !== merged[i - 1]!.id);
}

/**
 * A descending walk that starts where the page can: below the query's upper bound on the ordered
 * field (entries above it cannot match: range filters match only their own type, which sorts
 * together), or right after the cursor. The cursor sits inside its group of equal values, whose
 * entries after it come first (ties go by id ascending), then every smaller value.
 */
function descendingFrom(list: readonly Entry[], q: NormalizedQuery, field: string): Iterable<Entry> {
  let end = list.length;
  for (const [f, op, value] of q.where) {
    if (f === field && (op === '<' || op === '<=')) end = Math.min(end, firstAbove(list, value, op === '<'));
  }
  if (!q.after) return descending(list, end);
  const cursor = { value: q.after.values[0], id: q.after.id };
  const group = firstAbove(list, cursor.value, true);
  // A bound at or below the cursor's value: the walk from it is past the cursor already.
  if (end <= group) return descending(list, end);
  const at = position(list, cursor);
  return descending(list, group, [isAt(list, at, cursor) ? at + 1 : at, firstAbove(list, cursor.value)]);
}

/**
 * Value descending, ties by id ascending (the store's order): equal values walked forwards. The
 * walk covers the entries below `end`, after `head`: the rest of the group of equal values just
 * above `end` (a cursor's), walked first.
 */
function* descending(
  list: readonly Entry[],
  end: number,
  head?: readonly [number, number],
): Generator<Entry> {
  if (head) for (let i = head[0]; i < head[1]; i++) yield list[i]!;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && compareValues(list[start - 1]!.value, list[end - 1]!.value) === 0) start--;
    for (let i = start; i < end; i++) yield list[i]!;
    end = start;
  }
}
