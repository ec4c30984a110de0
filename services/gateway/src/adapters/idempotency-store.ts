import { randomUUID } from 'node:crypto';
import { ABORT, type CollectionOptions, deleteExpired, type Store } from '@hs/store';
import {
  decide,
  fingerprintOf,
  type IdempotencyRecord,
  openBody,
  recordId,
  sealBody,
} from '../domain/idempotency.ts';

export type StoredResponse<T> = { status: number; body: T };

export const IDEMPOTENCY_COLLECTIONS = {
  idempotency_keys: { indexes: [{ fields: ['expiresAt'] }] },
} satisfies Record<string, CollectionOptions>;

/** Idempotency records in the gateway's store (rules in domain/idempotency.ts). */
export function createIdempotencyStore(store: Store, options: { ttlMs?: number; leaseMs?: number } = {}) {
  const records = store.collection<IdempotencyRecord>(
    'idempotency_keys',
    IDEMPOTENCY_COLLECTIONS.idempotency_keys,
  );
  const ttlMs = options.ttlMs ?? 24 * 3600_000;
  const leaseMs = options.leaseMs ?? 60_000;
  return {
    /**
     * Deletes records past their expiry (they are already ignored), a batch at a time, so the
     * store doesn't grow with every key ever used. Returns how many were deleted.
     */
    purgeExpired(now = Date.now(), batch = 200): Promise<number> {
      return deleteExpired(records, { field: 'expiresAt', idOf: (r) => r.id, now, batch });
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
        await records.update(id, (r) => (r?.attemptId === attemptId && r.state === 'RUNNING' ? null : ABORT));
        throw err;
      }
      await records.update(id, (r) =>
        r?.attemptId === attemptId
          ? { ...r, state: 'DONE', status: result.status, sealedBody: sealBody(result.body, scope, key) }
          : ABORT,
      );
      return { ...result, replayed: false };
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
