// The one place where Firestore being away becomes "storage unavailable" (503), and where a call
// that gets no answer is cut off instead of hanging the request that made it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreUnavailableError } from './store-errors.ts';

/**
 * gRPC status codes that mean Firestore cannot serve the call now, not that the call is wrong:
 * UNAVAILABLE (the server is down or unreachable), DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED (quota).
 */
const UNAVAILABLE_CODES = new Set([14, 4, 8]);

/**
 * The longest one store call waits for Firestore. Unanswered, the SDK retries for up to a minute
 * (a stopped emulator held every request 30 to 55 s); a request makes a few store calls, and its
 * caller (the gateway) gives up after INTERNAL_API_TIMEOUT_SECONDS (10 s by default), so the
 * service answers 503 itself well before that.
 */
export const FIRESTORE_CALL_TIMEOUT_MS = 5000;
/**
 * A transaction (`update`) waits longer: under contention on one document (a household's counter
 * in a burst of creates) the SDK backs off 1, 1.5, 2.25 s... between attempts, and a transaction
 * cut off is not cancelled, so it may still commit after its caller was told 503.
 */
export const FIRESTORE_TRANSACTION_TIMEOUT_MS = 8000;
/**
 * Once Firestore is known to be away (an UNAVAILABLE answer, a failed readiness ping), calls wait
 * this long until one is answered: a Firestore that is back answers in milliseconds, so the first
 * request after its return finds it, and one that is still away costs each call a second.
 */
export const FIRESTORE_DOWN_CALL_TIMEOUT_MS = 1000;

/**
 * The deadline of the store call being made, aborted once its caller was answered 503: a
 * transaction the SDK is still retrying (up to ten attempts, close to a minute on a contended
 * document) checks it and gives up instead of committing a change its caller was told may not
 * have been saved (a budget reserved for an approval that answered 503, say).
 */
const callDeadlines = new AsyncLocalStorage<AbortSignal>();

/** The signal of the store call under way (see callDeadlines); undefined outside one. */
export const currentCallDeadline = (): AbortSignal | undefined => callDeadlines.getStore();

/** What a call does, which decides its deadline and what a timeout says about its outcome. */
export type FirestoreCallKind = 'read' | 'write' | 'transaction';

/** Firestore gave no answer in time: a write's outcome is unknown (it may still land). */
function timedOut(ms: number, kind: FirestoreCallKind): StoreUnavailableError {
  const unknown = kind !== 'read';
  const outcome = unknown ? ': the change may or may not have been saved' : '';
  return new StoreUnavailableError('FIRESTORE_TIMEOUT', `Storage did not answer within ${ms} ms${outcome}`, {
    outcomeUnknown: unknown,
  });
}

/**
 * gRPC status codes of a fault on Firestore's side while it is there: UNKNOWN and INTERNAL (the
 * emulator under load answers a commit `2 UNKNOWN` now and then). The request was not wrong, so
 * it is a 503 to try again, not a 500; a write's outcome is unknown, as after a timeout.
 */
const SERVER_FAULT_CODES = new Set([2, 13]);

/** The StoreUnavailableError a Firestore error stands for, or the error itself when it is another kind. */
export function fromFirestoreError(err: unknown, kind: FirestoreCallKind = 'read'): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'number') return err;
  if (SERVER_FAULT_CODES.has(code)) {
    const unknown = kind !== 'read';
    const outcome = unknown ? ': the change may or may not have been saved' : '';
    return new StoreUnavailableError('FIRESTORE_FAULT', `Storage failed to complete the request${outcome}`, {
      cause: err,
      outcomeUnknown: unknown,
    });
  }
  if (!UNAVAILABLE_CODES.has(code)) return err;
  return new StoreUnavailableError(
    'FIRESTORE_UNAVAILABLE',
    'Storage is unavailable: the request could not be completed',
    {
      cause: err,
    },
  );
}

/**
 * Runs store calls with a deadline and remembers whether Firestore is known to be away: after an
 * UNAVAILABLE answer or a failed readiness ping, calls get the short deadline until one is
 * answered. A call that merely ran out of time says nothing about the others (a slow transaction,
 * an event loop that stalled past the timer), so it does not shorten them.
 */
export function createFirestoreDeadlines() {
  let away = false;
  const returns = new Set<() => void>();
  const answered = () => {
    if (!away) return;
    away = false;
    for (const back of [...returns]) back();
  };

  return {
    /** Firestore answered (a call or the readiness ping): calls get the full deadline again. */
    answered,
    /** Calls `back` each time Firestore answers again after it was known to be away; returns the unhook. */
    onReturn(back: () => void): () => void {
      returns.add(back);
      return () => returns.delete(back);
    },
    /** Firestore did not answer the readiness ping: calls get the short deadline. */
    lost(): void {
      away = true;
    },
    /**
     * The call's result, or a StoreUnavailableError once it outlives its deadline. `call` is
     * started here (a function) so that it can see its deadline (currentCallDeadline), or was
     * started already (a promise).
     */
    async run<R>(call: Promise<R> | (() => Promise<R>), kind: FirestoreCallKind): Promise<R> {
      const ms = away
        ? FIRESTORE_DOWN_CALL_TIMEOUT_MS
        : kind === 'transaction'
          ? FIRESTORE_TRANSACTION_TIMEOUT_MS
          : FIRESTORE_CALL_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      let expired = false;
      const cutOff = new AbortController();
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          expired = true;
          cutOff.abort();
          reject(timedOut(ms, kind));
        }, ms);
      });
      const started = typeof call === 'function' ? callDeadlines.run(cutOff.signal, call) : call;
      try {
        const result = await Promise.race([started, deadline]);
        answered();
        return result;
      } catch (err) {
        if (expired) throw err;
        const mapped = fromFirestoreError(err, kind);
        if (mapped instanceof StoreUnavailableError && mapped.code === 'FIRESTORE_UNAVAILABLE') away = true;
        // Any other error is an answer (a fault on its side included): Firestore is there.
        else answered();
        throw mapped;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** What each collection call does: its deadline, and whether a timeout leaves a change unknown. */
const KIND_OF_CALL: Record<string, FirestoreCallKind> = {
  create: 'write',
  createMany: 'write',
  put: 'write',
  delete: 'write',
  update: 'transaction',
};
/**
 * Calls sent once more after a fault on Firestore's side (SERVER_FAULT_CODES): the reads, and a
 * put, which writes the whole document and so cannot do anything but what the first was meant to.
 * Not the other writes: a create that landed would conflict, a delete would report the document
 * missing; a transaction is retried by the SDK itself.
 */
const RETRIED_AFTER_FAULT = new Set(['get', 'getMany', 'query', 'count', 'put']);

/** One collection call (`name`, e.g. `put`) under the deadlines, sent again once after a fault if it may be. */
export async function runCollectionCall<R>(
  deadlines: ReturnType<typeof createFirestoreDeadlines>,
  name: string,
  call: () => Promise<R>,
): Promise<R> {
  const kind = KIND_OF_CALL[name] ?? 'read';
  try {
    return await deadlines.run(call, kind);
  } catch (err) {
    const fault = err instanceof StoreUnavailableError && err.code === 'FIRESTORE_FAULT';
    if (!fault || !RETRIED_AFTER_FAULT.has(name)) throw err;
    try {
      return await deadlines.run(call, kind);
    } catch (again) {
      // The first try of a write may have landed: its error says so, whatever the second found.
      const forgets = kind !== 'read' && again instanceof StoreUnavailableError && !again.outcomeUnknown;
      throw forgets ? err : again;
    }
  }
}
