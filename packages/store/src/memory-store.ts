import { matchesAll, runMemoryQuery } from './memory-query.ts';
import { assertCollectionName } from './names.ts';
import { normalizeQuery, normalizeWhere } from './normalize-query.ts';
import {
  ABORT,
  type Collection,
  type Doc,
  type Page,
  type Query,
  type Store,
  StoreConflictError,
  type Where,
} from './types.ts';

type Table = Map<string, Doc>;

/**
 * Process-local backend for development and tests. Documents are deep-copied on the way in and
 * out so callers can never reach stored state, matching the other backends' value semantics.
 */
export function createMemoryStore(): Store {
  const tables = new Map<string, Table>();
  return {
    backend: 'inmemory',
    collection<T extends Doc>(name: string): Collection<T> {
      assertCollectionName(name);
      let table = tables.get(name);
      if (!table) {
        table = new Map();
        tables.set(name, table);
      }
      return memoryCollection<T>(name, table);
    },
    ping: async () => true,
    close: async () => {},
  };
}

function memoryCollection<T extends Doc>(name: string, table: Table): Collection<T> {
  const copy = (doc: Doc): T => structuredClone(doc) as T;
  return {
    async get(id) {
      const doc = table.get(id);
      return doc ? copy(doc) : null;
    },
    async getMany(ids) {
      const found = new Map<string, T>();
      for (const id of ids) {
        const doc = table.get(id);
        if (doc) found.set(id, copy(doc));
      }
      return found;
    },
    async create(id, doc) {
      if (table.has(id)) throw new StoreConflictError(name, id);
      table.set(id, copy(doc));
    },
    async createMany(entries) {
      const seen = new Set<string>();
      for (const [id] of entries) {
        if (table.has(id) || seen.has(id)) throw new StoreConflictError(name, id);
        seen.add(id);
      }
      // Copy everything first so a clone failure cannot leave a partial batch behind.
      const copies = entries.map(([id, doc]) => [id, copy(doc)] as const);
      for (const [id, doc] of copies) table.set(id, doc);
    },
    async put(id, doc) {
      table.set(id, copy(doc));
    },
    async delete(id) {
      return table.delete(id);
    },
    async update(id, mutate) {
      const stored = table.get(id);
      const result = mutate(stored ? copy(stored) : null);
      if (result === ABORT) return { doc: stored ? copy(stored) : null, changed: false };
      if (result === null) return { doc: null, changed: table.delete(id) };
      table.set(id, copy(result));
      return { doc: copy(result), changed: true };
    },
    async query(query?: Query): Promise<Page<T>> {
      const { docs, nextCursor } = runMemoryQuery(table.entries(), normalizeQuery(query));
      return { items: docs.map(copy), nextCursor };
    },
    async count(where?: readonly Where[]) {
      const filters = normalizeWhere(where);
      let n = 0;
      for (const doc of table.values()) if (matchesAll(doc, filters)) n++;
      return n;
    },
  };
}
