import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFirestoreDeadlines,
  FIRESTORE_CALL_TIMEOUT_MS,
  FIRESTORE_DOWN_CALL_TIMEOUT_MS,
  fromFirestoreError,
} from '../src/firestore-faults.ts';
import { StoreUnavailableError } from '../src/index.ts';

const grpcError = (code: number) => Object.assign(new Error(`${code} grpc`), { code });
/** A Firestore call that never answers (a stopped server). */
const silent = () => new Promise<never>(() => {});

describe('Firestore faults', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('maps UNAVAILABLE, DEADLINE_EXCEEDED and RESOURCE_EXHAUSTED to the 503 error, keeping the cause', () => {
    for (const code of [14, 4, 8]) {
      const cause = grpcError(code);
      const mapped = fromFirestoreError(cause) as StoreUnavailableError;
      expect(mapped).toBeInstanceOf(StoreUnavailableError);
      expect(mapped.code).toBe('FIRESTORE_UNAVAILABLE');
      expect(mapped.message).toBe(
        'Storage is unavailable: the request could not be completed (FIRESTORE_UNAVAILABLE); try again later',
      );
      expect(mapped.cause).toBe(cause);
    }
    // A call that is wrong, not a server that is away, stays what it is.
    const invalid = grpcError(3);
    expect(fromFirestoreError(invalid)).toBe(invalid);
  });

  it('cuts off a call that gets no answer, then gives calls the short deadline until one is answered', async () => {
    const deadlines = createFirestoreDeadlines();
    const first = deadlines.run(silent(), true).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    const err = (await first) as StoreUnavailableError;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(err.code).toBe('FIRESTORE_TIMEOUT');
    expect(err.message).toBe(
      `Storage did not answer within ${FIRESTORE_CALL_TIMEOUT_MS} ms: the change may or may not have been saved (FIRESTORE_TIMEOUT); try again later`,
    );

    // Known away: the next read is cut off at the short deadline.
    let settled = false;
    const second = deadlines.run(silent(), false).catch((e: unknown) => e);
    void second.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    expect(settled).toBe(true);
    expect(((await second) as Error).message).toBe(
      `Storage did not answer within ${FIRESTORE_DOWN_CALL_TIMEOUT_MS} ms (FIRESTORE_TIMEOUT); try again later`,
    );

    // An answer (here an unrelated error) restores the full deadline.
    await expect(deadlines.run(Promise.reject(grpcError(3)), false)).rejects.toThrow('3 grpc');
    let cut = false;
    const third = deadlines.run(silent(), false).catch(() => {
      cut = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    expect(cut).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    await third;
    expect(cut).toBe(true);
  });

  it('passes answers through unchanged', async () => {
    const deadlines = createFirestoreDeadlines();
    await expect(deadlines.run(Promise.resolve({ id: 'a' }), false)).resolves.toEqual({ id: 'a' });
    await expect(deadlines.run(Promise.reject(grpcError(14)), true)).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  });
});
