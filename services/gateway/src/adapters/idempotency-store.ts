import { randomUUID } from 'node:crypto';
import { ABORT, type CollectionOptions, deleteExpired, type Store, StoreUnavailableError } from '@hs/store';
import {
  decide,
  fingerprintOf,
  type IdempotencyRecord,
  openBody,
  recordId,
  sealBody,
} from '../domain/idempotency.ts';

export type StoredResponse<T> = { status: number; body: T };

/** How long a stored answer must still live to count as one (see storedAnswer). */
const STORED_ANSWER_MARGIN_MS = 60_000;

export const IDEMPOTENCY_COLLECTIONS = {
  idempotency_keys: { indexes: [{ fields: ['expiresAt'] }] },
} satisfies Record<string, CollectionOptions>;

/** Idempotency records in the gateway's store (rules in domain/idempotency.ts). */
export function createIdempotencyStore(
  store: Store,
  options: {
    ttlMs?: number;
    leaseMs?: number;
    /** The peers' timeout: the lease outlasts two calls in a row (see below). */
    peerTimeoutMs?: number;
    settleRetryMs?: number;
    settleWaitMs?: number;
  } = {},
) {
  const records = store.collection<IdempotencyRecord>(
    'idempotency_keys',
    IDEMPOTENCY_COLLECTIONS.idempotency_keys,
  );
  const ttlMs = options.ttlMs ?? 24 * 3600_000;
  // How long a keyed attempt holds its key before a retry may run it again: a minute, or longer
  // when the peers' timeout is raised, so that an attempt still waiting on its peers (two calls in
  // a row at most: a purchase intent's dispatch and its second ask) is never run twice beside it.
  const leaseMs = options.leaseMs ?? Math.max(60_000, 2 * (options.peerTimeoutMs ?? 0) + 5_000);
  const settleRetryMs = options.settleRetryMs ?? 1000;
  const settleWaitMs = options.settleWaitMs ?? 500;

  /**
   * Writes an attempt's outcome (done, or key released) to its RUNNING record. When the store is
   * away at that moment the write is tried again in the background until it lands or the lease
   * runs out: left RUNNING, the key answered 409 to every retry until the lease ended, and then
   * ran the work a second time although it had been done (a create made twice). The answer waits
   * for the first write at most `settleWaitMs`: a stalled store (a transaction waits up to 8 s)
   * must not hold an answer that is ready, nor push a 504 past the gateway's own timeout.
   */
  const settle = async (
    id: string,
    leaseUntil: number,
    change: (r: IdempotencyRecord | null) => IdempotencyRecord | null | typeof ABORT,
  ): Promise<void> => {
    const write = () => records.update(id, change);
    const again = () => {
      if (Date.now() + settleRetryMs >= leaseUntil) return;
      const timer = setTimeout(() => {
        write().catch((e: unknown) => {
          if (e instanceof StoreUnavailableError) again();
        });
      }, settleRetryMs);
      timer.unref();
    };
    const first = write().then(
      () => undefined,
      (err: unknown) => {
        if (!(err instanceof StoreUnavailableError)) throw err;
        again();
      },
    );
    // Still failing after the answer went out: nobody is left to tell.
    first.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, settleWaitMs);
    });
    try {
      await Promise.race([first, waited]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    /**
     * Whether something made under a key at `createdAt` may still be the key's own: within the
     * key's life a run of its work again is a retry after a crash (its lease ran out), past it the
     * key is free for a new resource.
     */
    madeUnderLiveKey: (createdAt: string, now = Date.now()) => now - Date.parse(createdAt) < ttlMs,
    /**
     * Deletes records past their expiry (they are already ignored), a batch at a time, so the
     * store doesn't grow with every key ever used. Returns how many were deleted.
     */
    purgeExpired(now = Date.now(), batch = 200): Promise<number> {
      return deleteExpired(records, { field: 'expiresAt', idOf: (r) => r.id, now, batch });
    },
    /**
     * The answer the key holds for this scope, if it will still hold it a minute from now (so a
     * retry checked now cannot find it expired when it runs); null otherwise.
     */
    async storedAnswer(scope: string, key: string, now = Date.now()): Promise<unknown> {
      const record = await records.get(recordId(scope, key));
      if (record === null || record.state !== 'DONE' || record.expiresAt <= now + STORED_ANSWER_MARGIN_MS)
        return null;
      return openBody(record.sealedBody, scope, key);
    },
    /**
     * Runs `exec` once per (scope, key): replays a stored success, refuses a different body
     * (422) or a concurrent retry (409). Without a key it just runs.
     */
    async run<T>(
      scope: string,
      key: string | undefined,
      body: unknown,
      exec: () => Promise<StoredResponse<T>>,
    ): Promise<StoredResponse<T> & { replayed: boolean }> {
      if (key === undefined) return { ...(await exec()), replayed: false };
      const id = recordId(scope, key);
      const fingerprint = fingerprintOf(body);
      const attemptId = randomUUID();
      let failure: unknown;
      let replay: { status: number; sealedBody: string | null } | undefined;
      // No later than the lease the record gets (its clock is read inside the update).
      const leaseUntil = Date.now() + leaseMs;
      await records.update(id, (current) => {
        failure = undefined;
        replay = undefined;
        const now = Date.now();
        try {
          const decision = decide(current, fingerprint, now);
          if (decision.kind === 'replay') {
            replay = decision;
            return ABORT;
          }
        } catch (err) {
          failure = err;
          return ABORT;
        }
        return {
          id,
          scope,
          fingerprint,
          attemptId,
          state: 'RUNNING',
          status: null,
          sealedBody: null,
          createdAt: new Date(now).toISOString(),
          expiresAt: now + ttlMs,
          leaseUntil: now + leaseMs,
        };
      });
      if (failure) throw failure;
      if (replay)
        return { status: replay.status, body: openBody(replay.sealedBody, scope, key) as T, replayed: true };
      let result: StoredResponse<T>;
      try {
        result = await exec();
      } catch (err) {
        // The attempt's own failure is the answer, whether or not the key could be released yet.
        await settle(id, leaseUntil, (r) =>
          r?.attemptId === attemptId && r.state === 'RUNNING' ? null : ABORT,
        );
        throw err;
      }
      // The work is done: its answer goes out even when the record has to be completed later.
      await settle(id, leaseUntil, (r) =>
        r?.attemptId === attemptId
          ? { ...r, state: 'DONE', status: result.status, sealedBody: sealBody(result.body, scope, key) }
          : ABORT,
      );
      return { ...result, replayed: false };
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
