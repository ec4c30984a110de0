import type { DocumentData, Query as FirestoreQuery } from '@google-cloud/firestore';
import { encodeCursor } from './cursor.ts';
import { currentCallDeadline } from './firestore-faults.ts';
import type { FirestoreContext } from './firestore-store.ts';
import { normalizeQuery, normalizeWhere } from './normalize-query.ts';
import { ABORT, type Collection, type Doc, StoreConflictError, type Where } from './types.ts';

const GRPC_ALREADY_EXISTS = 6;
const GRPC_NOT_FOUND = 5;
/** Above the SDK default of 5: one-time-token spends contend hard on a single document. */
const MAX_TRANSACTION_ATTEMPTS = 10;

/** Ends a transaction whose caller's deadline passed (the caller already has its 503). */
class TransactionCutOffError extends Error {
  constructor() {
    super('Transaction abandoned: its deadline passed');
  }
}

/** `work`, or a rejection as soon as `deadline` is aborted (the work goes on, its outcome unheard). */
function untilCutOff<R>(deadline: AbortSignal | undefined, work: Promise<R>): Promise<R> {
  if (!deadline) return work;
  if (deadline.aborted) {
    work.catch(() => {});
    return Promise.reject(new TransactionCutOffError());
  }
  return new Promise<R>((resolve, reject) => {
    const cut = () => reject(new TransactionCutOffError());
    deadline.addEventListener('abort', cut, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', cut));
  });
}

const grpcCode = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;
/** What the store returns is what was stored: JSON semantics, undefined fields dropped. */
const stored = <T>(doc: T): T => JSON.parse(JSON.stringify(doc)) as T;

export function firestoreCollection<T extends Doc>(
  connect: () => Promise<FirestoreContext>,
  name: string,
  collectionId: string,
  /** Hooks a callback to Firestore answering again after an outage (firestore-faults.ts). */
  onReturn?: (back: () => void) => () => void,
  /** Runs this process's updates of one document one after another (see update). */
  inTurn: <R>(key: string, run: () => Promise<R>) => Promise<R> = (_key, run) => run(),
  /** Keeps a call the store must wait for at close, also one whose caller has stopped waiting. */
  track: <R>(call: Promise<R>) => Promise<R> = (call) => call,
): Collection<T> {
  const open = async () => {
    const ctx = await connect();
    return { ...ctx, ref: ctx.db.collection(collectionId) };
  };
  const applyWhere = (query: FirestoreQuery, where: readonly Where[]): FirestoreQuery =>
    where.reduce((q, [field, op, value]) => q.where(field, op, value), query);

  return {
    watch(id, onChange, onError) {
      // The listener is attached once the client is connected; a stop before that cancels it.
      let stop: (() => void) | null = null;
      let stopped = false;
      const attach = () =>
        open().then(({ ref }) => {
          if (stopped) return;
          stop?.();
          stop = ref.doc(id).onSnapshot((snap) => onChange(snap.exists ? (snap.data() as T) : null), onError);
        }, onError);
      void attach();
      // A listener whose stream broke (Firestore killed, replaced, unreachable) is re-opened by the
      // SDK only after its own backoff, 1.5x longer each failed attempt up to a minute, and says
      // nothing meanwhile: changes made once Firestore is back went unheard for as long (10 s
      // after a 15 s outage). A fresh listener as soon as Firestore answers again hears them
      // at once; its first snapshot is the document as it is now.
      const unhook = onReturn?.(() => void attach());
      return () => {
        stopped = true;
        unhook?.();
        stop?.();
      };
    },
    async get(id) {
      const { ref } = await open();
      const snap = await ref.doc(id).get();
      return snap.exists ? (snap.data() as T) : null;
    },
    async getMany(ids) {
      const found = new Map<string, T>();
      if (ids.length === 0) return found;
      const { db, ref } = await open();
      for (const snap of await db.getAll(...ids.map((id) => ref.doc(id)))) {
        if (snap.exists) found.set(snap.id, snap.data() as T);
      }
      return found;
    },
    async create(id, doc) {
      const { ref } = await open();
      try {
        await ref.doc(id).create(doc);
      } catch (err) {
        if (grpcCode(err) === GRPC_ALREADY_EXISTS) throw new StoreConflictError(name, id);
        throw err;
      }
    },
    async createMany(entries, also) {
      if (entries.length === 0 && !also?.put?.length) return;
      const seen = new Set<string>();
      for (const [id] of entries) {
        if (seen.has(id)) throw new StoreConflictError(name, id);
        seen.add(id);
      }
      const { db, ref } = await open();
      // A batch commits atomically: every create lands or none does.
      const batch = db.batch();
      for (const [id, doc] of entries) batch.create(ref.doc(id), doc);
      for (const [id, doc] of also?.put ?? []) batch.set(ref.doc(id), doc);
      try {
        await batch.commit();
      } catch (err) {
        if (grpcCode(err) !== GRPC_ALREADY_EXISTS) throw err;
        throw new StoreConflictError(name, conflictingId(err, entries) ?? entries[0]![0]);
      }
    },
    async put(id, doc) {
      const { ref } = await open();
      await ref.doc(id).set(doc);
    },
    async delete(id) {
      const { ref } = await open();
      try {
        // The precondition turns "was there anything?" into one round trip.
        await ref.doc(id).delete({ exists: true });
        return true;
      } catch (err) {
        if (grpcCode(err) === GRPC_NOT_FOUND) return false;
        throw err;
      }
    },
    async update(id, mutate) {
      const deadline = currentCallDeadline();
      const { db, ref } = await open();
      const docRef = ref.doc(id);
      // Firestore may re-run this function on contention; `mutate` is pure by contract. An
      // attempt after the caller was answered 503 ends the transaction uncommitted: the change
      // then lands never, rather than a minute later behind its caller's back. (A commit already
      // sent when the deadline passed may still land: that is the timeout's "may or may not".)
      // This process's updates of one document go one at a time: a burst on one document (20
      // retries under one Idempotency-Key, a household's upload counter) otherwise contends for
      // its lock all at once, and the losers back off past their deadline (503) where in turn
      // each takes one round trip. Across processes the transactions alone keep things right.
      // The queue waits for a transaction only until its caller's deadline: a transaction stuck
      // on an unanswering Firestore (the SDK retries it for up to a minute) must not hold every
      // later update of the document past theirs once Firestore answers again.
      return inTurn(`${collectionId}/${id}`, () =>
        untilCutOff(
          deadline,
          track(
            db.runTransaction(
              async (tx) => {
                if (deadline?.aborted) throw new TransactionCutOffError();
                const snap = await tx.get(docRef);
                if (deadline?.aborted) throw new TransactionCutOffError();
                const current = snap.exists ? (snap.data() as T) : null;
                const result = mutate(current === null ? null : stored(current));
                if (result === ABORT) return { doc: current, changed: false };
                if (result === null) {
                  if (current !== null) tx.delete(docRef);
                  return { doc: null, changed: current !== null };
                }
                tx.set(docRef, result);
                return { doc: stored(result), changed: true };
              },
              { maxAttempts: MAX_TRANSACTION_ATTEMPTS },
            ),
          ),
        ),
      );
    },
    async query(query) {
      const q = normalizeQuery(query);
      const { sdk, ref } = await open();
      let fq = applyWhere(ref, q.where);
      for (const o of q.order) fq = fq.orderBy(o.field, o.direction);
      fq = fq.orderBy(sdk.FieldPath.documentId(), 'asc');
      if (q.after) fq = fq.startAfter(...q.after.values, q.after.id);
      if (q.offset > 0) fq = fq.offset(q.offset);
      // One extra document tells whether a next page exists.
      if (q.limit !== undefined) fq = fq.limit(q.limit + 1);
      const snaps = (await fq.get()).docs;
      const more = q.limit !== undefined && snaps.length > q.limit;
      const page = more ? snaps.slice(0, q.limit) : snaps;
      const last = page.at(-1);
      const nextCursor =
        more && last
          ? encodeCursor({ values: q.order.map((o) => last.get(o.field) as unknown), id: last.id }, q.where)
          : null;
      return { items: page.map((s) => s.data() as T), nextCursor };
    },
    async count(where) {
      const filters = normalizeWhere(where);
      const { ref } = await open();
      const snap = await applyWhere(ref, filters).count().get();
      return snap.data().count;
    },
  };
}

/** The emulator and Firestore name the existing document in the error text. */
function conflictingId(
  err: unknown,
  entries: ReadonlyArray<readonly [string, DocumentData]>,
): string | undefined {
  const message = String((err as { message?: unknown }).message ?? '');
  return entries.map(([id]) => id).find((id) => message.includes(`/${id}}`) || message.endsWith(`/${id}`));
}
