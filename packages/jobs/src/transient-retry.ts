// A store that is briefly unusable (another process holds sqlite's lock past the busy timeout: a
// backup, an `sqlite3` shell left in a transaction) answers StoreUnavailableError. A live worker
// whose write failed that way tries again shortly, while its lease still holds the job, instead
// of leaving the job RUNNING under its lease until recovery takes it for a dead worker's.
import { isPassingStoreFault } from '@hs/service-kit';
import type { StoreUnavailableError } from '@hs/store';

/**
 * True for a store error a retry may get past (SQLITE_BUSY and the like, the service kit's one
 * rule); a full, read-only or damaged store is not retried.
 */
export const isTransientStoreError = (err: unknown): err is StoreUnavailableError => isPassingStoreFault(err);

export type TransientRetry = {
  /** Epoch ms after which no retry starts (the lease's end); the last error is then thrown. */
  until: () => number;
  /** First wait between tries (default 100 ms), doubled up to `maxDelayMs` (default 1 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Stops retrying (the error is thrown) once aborted. */
  signal?: AbortSignal;
  /** Told of each failed try that will be retried. */
  onRetry?: (err: StoreUnavailableError, tries: number) => void;
};

/**
 * Runs `op`, trying again with a short backoff while it fails with a transient store error and
 * `until()` is not reached; any other error, or the last transient one, is thrown. `op` must be
 * safe to repeat (a guarded atomic change: one that landed despite its error finds nothing to do).
 */
export async function retryTransient<T>(op: () => Promise<T>, options: TransientRetry): Promise<T> {
  const base = options.baseDelayMs ?? 100;
  const max = options.maxDelayMs ?? 1_000;
  for (let tries = 1; ; tries++) {
    try {
      return await op();
    } catch (err) {
      if (!isTransientStoreError(err) || options.signal?.aborted) throw err;
      const delay = Math.min(max, base * 2 ** (tries - 1));
      if (Date.now() + delay >= options.until()) throw err;
      options.onRetry?.(err, tries);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
