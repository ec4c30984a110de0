/**
 * The persistence contract every service codes against. Three backends implement it:
 * `inmemory`, `sqlite` (node:sqlite, one file per service) and `docstore` (Firestore).
 * Documents are plain JSON objects; the id is kept outside the document body.
 */
export type Doc = Record<string, unknown>;

export type WhereOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'array-contains' | 'array-contains-any';
export type Where = readonly [field: string, op: WhereOp, value: unknown];
export type OrderBy = { field: string; direction?: 'asc' | 'desc' };

export interface Query {
  where?: readonly Where[];
  /** Ties are always broken by id ascending so paging is stable. */
  orderBy?: readonly OrderBy[];
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string | null;
  /** Offset paging for small lists (audit trails); do not combine with cursor. */
  offset?: number;
}

export interface Page<T> {
  items: T[];
  /** Null when there is nothing after this page. */
  nextCursor: string | null;
}

/**
 * Fields queried together, declared up front so each backend can index them (sqlite expression
 * indexes and membership tables, Firestore composite indexes). Equality fields come first, then
 * at most one range/order field, as Firestore requires.
 */
export interface IndexSpec {
  fields: readonly string[];
  /**
   * Only Firestore needs it (it refuses a query without an exact composite index); sqlite
   * serves the query from a shorter index and filters the rest, and skips it, since every
   * index costs every write.
   */
  firestoreOnly?: boolean;
  /**
   * Only the embedded stores build it: an index over several array fields, which Firestore
   * cannot declare (one array-contains per query). The in-memory store keeps a sorted list per
   * combination of values; sqlite keeps a walk table, a row per combination with the ordered
   * value (see sqlite-walk.ts), which every write of the collection maintains: declare it for
   * the query shapes that must stay fast as a collection grows.
   */
  embeddedOnly?: boolean;
  /**
   * Only the in-memory store builds it: a sorted list per combination of values costs a pointer
   * per entry there, while sqlite would write a walk-table row per combination on every write of
   * the collection. For a query shape whose filters sqlite already checks cheaply on the rows it
   * walks (a walk row carries the other arrays' elements) but the memory store checks on each
   * document (a cache miss per candidate at 100k documents).
   */
  memoryOnly?: boolean;
  /**
   * Leaves out documents whose first scalar field is missing or null (sqlite: a partial index). For a
   * collection that mixes kinds of documents, such as a ledger's entries with their markers and
   * head: the others cost that index nothing on every write. Only queries that filter on the
   * first field can use it; sqlite proves that itself, so a query that can't is slower, never
   * wrong. The other backends build it as usual.
   */
  sparse?: boolean;
}

export interface CollectionOptions {
  indexes?: readonly IndexSpec[];
  /** Array fields that queries use with array-contains / array-contains-any. */
  arrayFields?: readonly string[];
  /**
   * Fields no query reads, typically maps keyed by ids: Firestore would index every key of them
   * on each write, so its index file exempts them (`fieldOverrides` with no indexes).
   */
  unindexedFields?: readonly string[];
}

/** Returned by an update function to leave the document untouched and report why. */
export const ABORT: unique symbol = Symbol('store.abort');

export interface Collection<T extends Doc> {
  get(id: string): Promise<T | null>;
  getMany(ids: readonly string[]): Promise<Map<string, T>>;
  /** Fails with StoreConflictError when the id exists. */
  create(id: string, doc: T): Promise<void>;
  /**
   * Creates all or none (StoreConflictError when any id exists), and in the same atomic write
   * puts (creates or replaces) `also.put`: a ledger's new entries and its moved head, say.
   */
  createMany(
    entries: ReadonlyArray<readonly [string, T]>,
    also?: { put?: ReadonlyArray<readonly [string, T]> },
  ): Promise<void>;
  put(id: string, doc: T): Promise<void>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
  /**
   * Atomic read-modify-write. `mutate` sees the current document (or null) and returns the new
   * one, null to delete, or ABORT to change nothing. It may run more than once (Firestore retries
   * transactions), so it must be pure: no I/O, no side effects. Resolves to the stored result:
   * `{ doc, changed }` where doc is the document after the call.
   */
  update(
    id: string,
    mutate: (current: T | null) => T | null | typeof ABORT,
  ): Promise<{ doc: T | null; changed: boolean }>;
  query(query?: Query): Promise<Page<T>>;
  count(where?: readonly Where[]): Promise<number>;
  /**
   * Calls `onChange` with the document whenever it changes (and once when the watch starts), until the
   * returned function is called; `onError` when the watch breaks. Only a backend shared between
   * processes that can push changes has it (docstore: a Firestore snapshot listener); the others
   * leave it out and their users poll.
   */
  watch?(id: string, onChange: (doc: T | null) => void, onError: (err: unknown) => void): () => void;
}

export interface Store {
  readonly backend: 'inmemory' | 'sqlite' | 'docstore';
  collection<T extends Doc>(name: string, options?: CollectionOptions): Collection<T>;
  /** True when the backend answers (used by GET /ready). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class StoreConflictError extends Error {
  readonly collection: string;
  readonly id: string;
  constructor(collection: string, id: string) {
    super(`Document ${collection}/${id} already exists`);
    this.name = 'StoreConflictError';
    this.collection = collection;
    this.id = id;
  }
}

/**
 * A query the store cannot run as given: bad field path, operator/value mismatch, cursor from
 * another query, cursor combined with offset. Services map it to 400 when the query came from
 * a client.
 */
export class StoreQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreQueryError';
  }
}
