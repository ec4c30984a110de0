import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFirestoreDeadlines,
  FIRESTORE_CALL_TIMEOUT_MS,
  FIRESTORE_DOWN_CALL_TIMEOUT_MS,
  FIRESTORE_TRANSACTION_TIMEOUT_MS,
  fromFirestoreError,
  runCollectionCall,
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

  it('cuts off a call that gets no answer; a write says its outcome is unknown, a transaction waits longer', async () => {
    const deadlines = createFirestoreDeadlines();
    const write = deadlines.run(silent(), 'write').catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    const err = (await write) as StoreUnavailableError;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(err.code).toBe('FIRESTORE_TIMEOUT');
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toBe(
      `Storage did not answer within ${FIRESTORE_CALL_TIMEOUT_MS} ms: the change may or may not have been saved (FIRESTORE_TIMEOUT); try again later`,
    );

    // A timeout alone says nothing about Firestore: the next read still gets the full deadline.
    let cut = false;
    const read = deadlines.run(silent(), 'read').catch((e: unknown) => {
      cut = true;
      return e as StoreUnavailableError;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    expect(cut).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    expect((await read).outcomeUnknown).toBe(false);

    let ended = false;
    const transaction = deadlines.run(silent(), 'transaction').catch(() => {
      ended = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRESTORE_TRANSACTION_TIMEOUT_MS - FIRESTORE_CALL_TIMEOUT_MS);
    await transaction;
    expect(ended).toBe(true);
  });

  it('gives calls the short deadline once Firestore is known away (UNAVAILABLE or a failed ping), until one is answered', async () => {
    const deadlines = createFirestoreDeadlines();
    await expect(deadlines.run(Promise.reject(grpcError(14)), 'read')).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    let settled = false;
    const second = deadlines.run(silent(), 'read').catch((e: unknown) => e);
    void second.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    expect(settled).toBe(true);
    expect(((await second) as Error).message).toBe(
      `Storage did not answer within ${FIRESTORE_DOWN_CALL_TIMEOUT_MS} ms (FIRESTORE_TIMEOUT); try again later`,
    );

    // An answer (here an unrelated error) restores the full deadline; a failed ping shortens it again.
    await expect(deadlines.run(Promise.reject(grpcError(3)), 'read')).rejects.toThrow('3 grpc');
    let cut = false;
    const third = deadlines.run(silent(), 'read').catch(() => {
      cut = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    expect(cut).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    await third;
    expect(cut).toBe(true);
    deadlines.lost();
    let short = false;
    const fourth = deadlines.run(silent(), 'read').catch(() => {
      short = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    await fourth;
    expect(short).toBe(true);
  });

  it('passes answers through unchanged', async () => {
    const deadlines = createFirestoreDeadlines();
    await expect(deadlines.run(Promise.resolve({ id: 'a' }), 'read')).resolves.toEqual({ id: 'a' });
    await expect(deadlines.run(Promise.reject(grpcError(14)), 'write')).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  });

  it('answers a fault on Firestore side (UNKNOWN, INTERNAL) 503, a write as maybe saved, without shortening later calls', async () => {
    for (const code of [2, 13]) {
      const read = fromFirestoreError(grpcError(code)) as StoreUnavailableError;
      expect(read).toBeInstanceOf(StoreUnavailableError);
      expect(read.code).toBe('FIRESTORE_FAULT');
      expect(read.outcomeUnknown).toBe(false);
      expect(read.message).toBe('Storage failed to complete the request (FIRESTORE_FAULT); try again later');
      const write = fromFirestoreError(grpcError(code), 'write') as StoreUnavailableError;
      expect(write.outcomeUnknown).toBe(true);
      expect(write.message).toBe(
        'Storage failed to complete the request: the change may or may not have been saved (FIRESTORE_FAULT); try again later',
      );
    }
    const deadlines = createFirestoreDeadlines();
    await expect(deadlines.run(Promise.reject(grpcError(2)), 'read')).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    // Firestore answered: the next call still gets the full deadline.
    let cut = false;
    const next = deadlines.run(silent(), 'read').catch(() => {
      cut = true;
    });
    await vi.advanceTimersByTimeAsync(FIRESTORE_DOWN_CALL_TIMEOUT_MS);
    expect(cut).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRESTORE_CALL_TIMEOUT_MS);
    await next;
  });

  it('sends a read or a put once more after a fault on Firestore side, never a create, delete or update', async () => {
    const deadlines = createFirestoreDeadlines();
    const faultingOnce = () => {
      let calls = 0;
      const call = async () => {
        calls++;
        if (calls === 1) throw grpcError(2);
        return 'saved';
      };
      return { call, calls: () => calls };
    };
    for (const name of ['get', 'getMany', 'query', 'count', 'put']) {
      const once = faultingOnce();
      await expect(runCollectionCall(deadlines, name, once.call)).resolves.toBe('saved');
      expect(once.calls(), name).toBe(2);
    }
    for (const name of ['create', 'createMany', 'delete', 'update']) {
      const once = faultingOnce();
      const err = (await runCollectionCall(deadlines, name, once.call).catch(
        (e: unknown) => e,
      )) as StoreUnavailableError;
      expect(err.code, name).toBe('FIRESTORE_FAULT');
      expect(err.outcomeUnknown, name).toBe(true);
      expect(once.calls(), name).toBe(1);
    }
    // A second fault is the caller's 503; a wrong call is never sent again.
    let calls = 0;
    const always = async () => {
      calls++;
      throw grpcError(13);
    };
    await expect(runCollectionCall(deadlines, 'put', always)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(calls).toBe(2);
    // A put whose retry finds Firestore away still may have landed the first time.
    calls = 0;
    const thenAway = async () => {
      calls++;
      throw grpcError(calls === 1 ? 2 : 14);
    };
    const lost = (await runCollectionCall(deadlines, 'put', thenAway).catch(
      (e: unknown) => e,
    )) as StoreUnavailableError;
    expect(lost.outcomeUnknown).toBe(true);
    expect(lost.code).toBe('FIRESTORE_FAULT');
    calls = 0;
    const invalid = async () => {
      calls++;
      throw grpcError(3);
    };
    await expect(runCollectionCall(deadlines, 'get', invalid)).rejects.toThrow('3 grpc');
    expect(calls).toBe(1);
  });
});
