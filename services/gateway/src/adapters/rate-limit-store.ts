// A store for @fastify/rate-limit (https://github.com/fastify/fastify-rate-limit) over the
// gateway's own store, so every replica counts the same fixed windows: a limit holds across
// replicas and restarts. One document per key (a client address or a user and what they do).
import { createHash } from 'node:crypto';
import { ABORT, type Collection, type CollectionOptions, deleteExpired, type Store } from '@hs/store';

export type Window = { key: string; count: number; startedAt: number; expiresAt: number };
type Incremented = { current: number; ttl: number };

export const RATE_LIMIT_COLLECTIONS = {
  rate_limits: { indexes: [{ fields: ['expiresAt'] }] },
} satisfies Record<string, CollectionOptions>;

const windowId = (key: string) => createHash('sha256').update(key).digest('hex');

/** Counts one hit in `key`'s current window; starts a new window once the last one ended. */
export async function countHit(
  windows: Collection<Window>,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<Incremented> {
  const id = windowId(key);
  const { doc } = await windows.update(id, (w) =>
    !w || w.startedAt + windowMs <= now
      ? { key, count: 1, startedAt: now, expiresAt: now + windowMs }
      : { ...w, count: w.count + 1 },
  );
  return { current: doc!.count, ttl: Math.max(0, doc!.startedAt + windowMs - now) };
}

/**
 * Takes back one hit counted in `key`'s window that ends at `expiresAt` (a request that turned out
 * to run nothing). A window that has ended since, or a newer one, is left as it is.
 */
export function createHitRefunds(store: Store) {
  const windows = store.collection<Window>('rate_limits', RATE_LIMIT_COLLECTIONS.rate_limits);
  return {
    async refund(key: string, expiresAt: number, now = Date.now()): Promise<void> {
      await windows.update(windowId(key), (w) =>
        w && w.count > 0 && w.expiresAt > now && Math.abs(w.expiresAt - expiresAt) < 1000
          ? { ...w, count: w.count - 1 }
          : ABORT,
      );
    },
  };
}

/** The store class @fastify/rate-limit instantiates (its `store` option). */
export function sharedRateLimitStore(store: Store) {
  const windows = store.collection<Window>('rate_limits', RATE_LIMIT_COLLECTIONS.rate_limits);
  return class SharedRateLimitStore {
    incr(key: string, done: (err: Error | null, result?: Incremented) => void, timeWindow: number): void {
      countHit(windows, key, timeWindow).then(
        (result) => done(null, result),
        (err: Error) => done(err),
      );
    }
    child(): SharedRateLimitStore {
      return new SharedRateLimitStore();
    }
  };
}

/**
 * A fixed-window limiter over the shared store for limits checked by hand (voice sessions and
 * socket connects): at most `limit` hits per `windowMs` per key, across every replica.
 */
export function createSharedLimiter(
  store: Store,
  options: { name: string; limit: number; windowMs: number },
) {
  const windows = store.collection<Window>('rate_limits', RATE_LIMIT_COLLECTIONS.rate_limits);
  return {
    /** Counts one hit; `retryAfterSeconds` says when the key may try again (whole seconds, at least 1). */
    async hit(key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
      const { current, ttl } = await countHit(windows, `${options.name}:${key}`, options.windowMs);
      if (current <= options.limit) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
  };
}

export type SharedLimiter = ReturnType<typeof createSharedLimiter>;

/**
 * Deletes windows that have ended (a new hit starts a fresh one anyway), a batch at a time, so
 * the store holds only the keys seen in the last window, not every client ever counted.
 */
export function purgeEndedWindows(store: Store, now = Date.now(), batch = 500): Promise<number> {
  const windows = store.collection<Window>('rate_limits', RATE_LIMIT_COLLECTIONS.rate_limits);
  return deleteExpired(windows, { field: 'expiresAt', idOf: (w) => windowId(w.key), now, batch });
}
