import { createStore, StoreUnavailableError } from '@hs/store';
import { wrapCollection } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../src/adapters/idempotency-store.ts';

// Firestore going away between a keyed request's work and the write of its outcome (the peer
// created the offer, then the gateway's own store stopped answering). The key must neither stay
// "in progress" (409 to every retry for the lease's minute) nor, once the lease ran out, let a
// retry do the work a second time.

/** A store whose idempotency records cannot be changed while `down.now` is set, or answer after `stallMs`. */
function storeGoingAway() {
  const down = { now: false, stallMs: 0 };
  const store = wrapCollection(
    createStore({ backend: 'inmemory' }),
    'idempotency_keys',
    (method, original) =>
      method === 'update'
        ? async (...args: unknown[]) => {
            if (down.stallMs) await new Promise((r) => setTimeout(r, down.stallMs));
            if (down.now) throw new StoreUnavailableError('FIRESTORE_TIMEOUT', 'Storage did not answer');
            return original(...args);
          }
        : undefined,
  );
  return { store, down };
}

const SETTLE_RETRY_MS = 5;

describe('idempotency records while the store goes away', () => {
  it('answers the work done and completes the record once the store is back: a retry replays it', async () => {
    const { store, down } = storeGoingAway();
    const keys = createIdempotencyStore(store, { settleRetryMs: SETTLE_RETRY_MS });
    let runs = 0;
    const createOffer = async () => {
      runs++;
      down.now = true; // the outage begins while the peer does the work
      return { status: 201, body: { offerId: 'off_1' } };
    };

    const first = await keys.run('offers', 'k-1', { title: 'Shirt' }, createOffer);
    expect(first).toEqual({ status: 201, body: { offerId: 'off_1' }, replayed: false });

    down.now = false;
    await expect
      .poll(() => keys.run('offers', 'k-1', { title: 'Shirt' }, createOffer).catch((err: unknown) => err))
      .toEqual({ status: 201, body: { offerId: 'off_1' }, replayed: true });
    expect(runs).toBe(1);
  });

  it('frees the key of a failed attempt once the store is back, so a retry runs instead of 409', async () => {
    const { store, down } = storeGoingAway();
    const keys = createIdempotencyStore(store, { settleRetryMs: SETTLE_RETRY_MS });
    const peerDown = new Error('peer answered 503');
    const failing = async () => {
      down.now = true;
      throw peerDown;
    };

    // The attempt's own failure is what the caller hears, not the store's.
    await expect(keys.run('offers', 'k-2', { title: 'Shirt' }, failing)).rejects.toBe(peerDown);

    down.now = false;
    await expect
      .poll(() =>
        keys
          .run('offers', 'k-2', { title: 'Shirt' }, async () => ({ status: 201, body: { offerId: 'off_2' } }))
          .catch((err: unknown) => (err as Error).message),
      )
      .toEqual({ status: 201, body: { offerId: 'off_2' }, replayed: false });
  });

  it('does not hold a ready answer, nor a failure, while the store stalls on writing the outcome', async () => {
    const { store, down } = storeGoingAway();
    const keys = createIdempotencyStore(store, { settleRetryMs: SETTLE_RETRY_MS, settleWaitMs: 100 });
    const stalled = async <T>(work: () => Promise<T>) => {
      const started = Date.now();
      const outcome = await work().catch((err: unknown) => err);
      return { outcome, ms: Date.now() - started };
    };
    const done = await stalled(() =>
      keys.run('offers', 'k-3', { title: 'Shirt' }, async () => {
        down.stallMs = 3000; // the store stalls after the work is done
        return { status: 201, body: { offerId: 'off_3' } };
      }),
    );
    expect(done.outcome).toEqual({ status: 201, body: { offerId: 'off_3' }, replayed: false });
    expect(done.ms).toBeLessThan(1500);

    down.stallMs = 0;
    const peerTimeout = new Error('orchestrator did not answer within 10000 ms');
    const failed = await stalled(() =>
      keys.run('offers', 'k-4', { title: 'Shirt' }, async () => {
        down.stallMs = 3000;
        throw peerTimeout;
      }),
    );
    expect(failed.outcome).toBe(peerTimeout);
    expect(failed.ms).toBeLessThan(1500);
    // The stalled write lands in the end: the first key replays, the second runs again.
    down.stallMs = 0;
    await expect
      .poll(() => keys.run('offers', 'k-3', { title: 'Shirt' }, async () => ({ status: 500, body: {} })), {
        timeout: 6000,
      })
      .toEqual({ status: 201, body: { offerId: 'off_3' }, replayed: true });
  });
});
