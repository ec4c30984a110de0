import { compareStrings, compareValues } from './compare.ts';
import { getPath } from './names.ts';
import type { NormalizedQuery } from './normalize-query.ts';
import type { Doc, IndexSpec } from './types.ts';

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
  remove(id: string, doc: Doc): void;
  /** The entries in the query's order, for a query this index serves; null when it does not serve it. */
  candidates(q: NormalizedQuery): Iterable<Entry> | null;
};

export type Entry = { value: unknown; id: string };

/** A key for an equality value; null for values equality on them is not indexed for (lists, maps). */
function scalarKey(value: unknown): string | null {
  if (value === null) return 'n';
  switch (typeof value) {
    case 'boolean':
      return `b${value}`;
    case 'number':
      return Number.isNaN(value) ? null : `d${value === 0 ? 0 : value}`;
    case 'string':
      return `s${value}`;
    default:
      return null;
  }
}

const compareEntries = (a: Entry, b: Entry) => compareValues(a.value, b.value) || compareStrings(a.id, b.id);

/** Where `entry` goes (or is) in a sorted list. */
function position(list: readonly Entry[], entry: Entry): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(list[mid]!, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createMemoryIndex(spec: IndexSpec, arrayFields: ReadonlySet<string>): MemoryIndex {
  const prefix = spec.fields.slice(0, -1);
  const last = spec.fields.at(-1)!;
  const lists = new Map<string, Entry[]>();

  /** Every prefix key a document is listed under (one per element of an array field). */
  function keysOf(doc: Doc): string[] {
    let keys = [''];
    for (const field of prefix) {
      const value = getPath(doc, field);
      if (value === undefined) return [];
      const values = arrayFields.has(field) ? (Array.isArray(value) ? value : []) : [value];
      const parts = [...new Set(values.map(scalarKey).filter((k): k is string => k !== null))];
      keys = keys.flatMap((k) => parts.map((p) => `${k}\u0000${p}`));
      if (keys.length === 0) return [];
    }
    return keys;
  }

  return {
    prefix,
    last,
    add(id, doc) {
      const value = getPath(doc, last);
      // Ordering by a field leaves out documents without it, as a query would.
      if (value === undefined) return;
      const entry = { value, id };
      for (const key of keysOf(doc)) {
        let list = lists.get(key);
        if (!list) {
          list = [];
          lists.set(key, list);
        }
        list.splice(position(list, entry), 0, entry);
      }
    },
    remove(id, doc) {
      const value = getPath(doc, last);
      if (value === undefined) return;
      const entry = { value, id };
      for (const key of keysOf(doc)) {
        const list = lists.get(key);
        if (!list) continue;
        const at = position(list, entry);
        if (list[at]?.id === id) list.splice(at, 1);
        if (list.length === 0) lists.delete(key);
      }
    },
    candidates(q) {
      if (q.order.length !== 1 || q.order[0]!.field !== last) return null;
      let key = '';
      for (const field of prefix) {
        const op = arrayFields.has(field) ? 'array-contains' : '==';
        const clause = q.where.find(([f, o]) => f === field && o === op);
        const part = clause ? scalarKey(clause[2]) : null;
        if (part === null) return null;
        key += `\u0000${part}`;
      }
      const list = lists.get(key) ?? [];
      if (q.order[0]!.direction === 'desc') return descending(list);
      // Ascending: start right after the cursor instead of walking up to it.
      const after = q.after;
      if (!after) return list;
      const from = position(list, { value: after.values[0], id: after.id });
      return list[from]?.id === after.id ? list.slice(from + 1) : list.slice(from);
    },
  };
}

/** Value descending, ties by id ascending (the store's order): equal values walked forwards. */
function* descending(list: readonly Entry[]): Generator<Entry> {
  let end = list.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && compareValues(list[start - 1]!.value, list[end - 1]!.value) === 0) start--;
    for (let i = start; i < end; i++) yield list[i]!;
    end = start;
  }
}
