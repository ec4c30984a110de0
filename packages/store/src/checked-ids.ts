import { type Collection, type Doc, StoreQueryError } from './types.ts';

const MAX_ID_BYTES = 1500;

/**
 * Document ids every backend accepts (Firestore's rules): non-empty, no `/`, not `.` or `..`,
 * not `__x__`, at most 1500 bytes. Route params arrive URL-decoded, so `a%2Fb` must not turn
 * into a Firestore sub-path on one backend while working on another.
 */
export function isValidDocId(id: unknown): id is string {
  return (
    typeof id === 'string' &&
    id.length > 0 &&
    !id.includes('/') &&
    id !== '.' &&
    id !== '..' &&
    !/^__.*__$/.test(id) &&
    Buffer.byteLength(id) <= MAX_ID_BYTES
  );
}

function assertId(id: string): void {
  if (!isValidDocId(id)) throw new StoreQueryError(`Invalid document id ${JSON.stringify(id)}`);
}

/** Reads of an invalid id find nothing; writes with one fail. Same on every backend. */
export function withCheckedIds<T extends Doc>(inner: Collection<T>): Collection<T> {
  return {
    get: async (id) => (isValidDocId(id) ? inner.get(id) : null),
    getMany: async (ids) => inner.getMany(ids.filter(isValidDocId)),
    create: async (id, doc) => {
      assertId(id);
      return inner.create(id, doc);
    },
    createMany: async (entries, also) => {
      for (const [id] of [...entries, ...(also?.put ?? [])]) assertId(id);
      return inner.createMany(entries, also);
    },
    put: async (id, doc) => {
      assertId(id);
      return inner.put(id, doc);
    },
    delete: async (id) => (isValidDocId(id) ? inner.delete(id) : false),
    update: async (id, mutate) => {
      assertId(id);
      return inner.update(id, mutate);
    },
    query: (query) => inner.query(query),
    count: (where) => inner.count(where),
    ...(inner.watch
      ? {
          watch: (id: string, onChange: (doc: T | null) => void, onError: (err: unknown) => void) => {
            assertId(id);
            return inner.watch!(id, onChange, onError);
          },
        }
      : {}),
  };
}
