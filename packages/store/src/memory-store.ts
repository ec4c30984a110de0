import { copyDoc } from './copy-doc.ts';
import { createMemoryIndex, type IndexWalk, type MemoryIndex } from './memory-index.ts';
import { matchesAll, runMemoryQuery, runOrderedQuery } from './memory-query.ts';
import { assertCollectionName, getPath } from './names.ts';
import { type NormalizedQuery, normalizeQuery, normalizeWhere } from './normalize-query.ts';
import {
  ABORT,
  type Collection,
  type CollectionOptions,
  type Doc,
  type Page,
  type Query,
  type Store,
  StoreConflictError,
  type Where,
} from './types.ts';

/** A collection's documents, and its declared indexes once a query has used them. */
type Table = {
  docs: Map<string, Doc>;
  indexes: Map<string, MemoryIndex>;
  arrays: Set<string>;
  /** One shared copy of each string found in an array field. */
  intern(value: string): string;
};

/**
 * Strings the intern table keeps before it starts over. It never learns which strings the
 * documents still hold, so a long-lived process whose documents keep changing (new titles, new
 * words) would keep every string ever seen. Starting over costs only sharing: documents stored
 * before keep their copies, later ones share new ones.
 */
const MAX_INTERNED = 100_000;

function internTable(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    if (seen.size >= MAX_INTERNED) seen.clear();
    seen.set(value, value);
    return value;
  };
}

/**
 * Process-local backend for development and tests. Documents are deep-copied on the way in and
 * out so callers can never reach stored state, matching the other backends' value semantics.
 */
export function createMemoryStore(): Store {
  const tables = new Map<string, Table>();
  return {
    backend: 'inmemory',
    collection<T extends Doc>(name: string, options: CollectionOptions = {}): Collection<T> {
      assertCollectionName(name);
      let table = tables.get(name);
      if (!table) {
        table = { docs: new Map(), indexes: new Map(), arrays: new Set(), intern: internTable() };
        tables.set(name, table);
      }
      for (const field of options.arrayFields ?? []) table.arrays.add(field);
      for (const spec of options.indexes ?? []) {
        const key = spec.fields.join('\u0000');
        if (spec.fields.length < 2 || table.indexes.has(key)) continue;
        const index = createMemoryIndex(spec, table.arrays);
        for (const [id, doc] of table.docs) index.add(id, doc);
        table.indexes.set(key, index);
      }
      return memoryCollection<T>(name, table);
    },
    ping: async () => true,
    close: async () => {},
  };
}

function memoryCollection<T extends Doc>(name: string, table: Table): Collection<T> {
  const copy = (doc: Doc): T => copyDoc(doc) as T;
  const { docs, indexes } = table;
  /**
   * The private copy a document is stored as. The strings of its array fields are shared with
   * every other document holding the same string: a walk testing array-contains on thousands of
   * documents then compares strings that stay in the CPU cache (a few dozen words, not a copy per
   * document), which at 100k documents is most of a search's time.
   */
  const toStored = (doc: Doc): Doc => {
    const own = copyDoc(doc);
    for (const field of table.arrays) {
      const list = getPath(own, field);
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) if (typeof list[i] === 'string') list[i] = table.intern(list[i]);
    }
    return own;
  };
  /** Stores a document (already a private copy), keeping every index in step. */
  const set = (id: string, doc: Doc): void => {
    const old = docs.get(id);
    for (const index of indexes.values()) {
      if (old) index.remove(id, old);
      index.add(id, doc);
    }
    docs.set(id, doc);
  };
  const remove = (id: string): boolean => {
    const old = docs.get(id);
    if (!old) return false;
    for (const index of indexes.values()) index.remove(id, old);
    return docs.delete(id);
  };
  /** The declared index that serves the query with the fewest rows to walk, if any does. */
  const walk = (q: NormalizedQuery) => {
    let best: IndexWalk | null = null;
    for (const index of indexes.values()) {
      const found = index.candidates(q);
      if (found && (!best || found.size < best.size)) best = found;
    }
    return best;
  };
  return {
    async get(id) {
      const doc = docs.get(id);
      return doc ? copy(doc) : null;
    },
    async getMany(ids) {
      const found = new Map<string, T>();
      for (const id of ids) {
        const doc = docs.get(id);
        if (doc) found.set(id, copy(doc));
      }
      return found;
    },
    async create(id, doc) {
      if (docs.has(id)) throw new StoreConflictError(name, id);
      set(id, toStored(doc));
    },
    async createMany(entries, also) {
      const seen = new Set<string>();
      for (const [id] of entries) {
        if (docs.has(id) || seen.has(id)) throw new StoreConflictError(name, id);
        seen.add(id);
      }
      // Copy everything first so a clone failure cannot leave a partial batch behind.
      const created = entries.map(([id, doc]) => [id, toStored(doc)] as const);
      const puts = (also?.put ?? []).map(([id, doc]) => [id, toStored(doc)] as const);
      for (const [id, doc] of created) docs.set(id, doc);
      for (const index of indexes.values()) index.addNew(created);
      for (const [id, doc] of puts) set(id, doc);
    },
    async put(id, doc) {
      set(id, toStored(doc));
    },
    async delete(id) {
      return remove(id);
    },
    async update(id, mutate) {
      const stored = docs.get(id);
      const result = mutate(stored ? copy(stored) : null);
      if (result === ABORT) return { doc: stored ? copy(stored) : null, changed: false };
      if (result === null) return { doc: null, changed: remove(id) };
      set(id, toStored(result));
      return { doc: copy(result), changed: true };
    },
    async query(query?: Query): Promise<Page<T>> {
      const q = normalizeQuery(query);
      const ordered = walk(q);
      const { docs: found, nextCursor } = ordered
        ? runOrderedQuery(ordered.walk(), q, ordered.covered)
        : runMemoryQuery(docs.entries(), q);
      return { items: found.map(copy), nextCursor };
    },
    async count(where?: readonly Where[]) {
      const filters = normalizeWhere(where);
      let n = 0;
      for (const doc of docs.values()) if (matchesAll(doc, filters)) n++;
      return n;
    },
  };
}
