import { randomUUID } from 'node:crypto';
import { firestoreEmulatorHost } from '@hs/testing';
import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../src/index.ts';
import { describeStoreContract } from './store-contract.ts';

const host = firestoreEmulatorHost();
if (!host) console.warn('Firestore emulator not available: docstore contract tests SKIPPED');

describe.skipIf(!host)('docstore (Firestore emulator)', () => {
  // A fresh namespace per test keeps tests, and test files running in parallel, apart in one
  // emulator; the demo- project id guarantees the client can never reach a real project.
  describeStoreContract('docstore', async () =>
    createStore({
      backend: 'docstore',
      projectId: 'demo-store-test',
      namespace: `t${randomUUID().slice(0, 8)}_`,
    }),
  );
});

describe.skipIf(!host)('docstore watch (Firestore emulator)', () => {
  it('tells a watcher when the document changes, from another client too, and stops when asked', async () => {
    const namespace = `t${randomUUID().slice(0, 8)}_`;
    const one = createStore({ backend: 'docstore', projectId: 'demo-store-test', namespace });
    const two = createStore({ backend: 'docstore', projectId: 'demo-store-test', namespace });
    try {
      const counters = one.collection<{ seq: number }>('counters');
      let changes = 0;
      const stop = counters.watch!(
        'm_1',
        () => changes++,
        (err) => {
          throw err;
        },
      );
      // Once when the listener starts.
      await vi.waitFor(() => expect(changes).toBe(1), { timeout: 10_000 });
      await two.collection<{ seq: number }>('counters').put('m_1', { seq: 1 });
      await vi.waitFor(() => expect(changes).toBe(2), { timeout: 10_000 });
      stop();
      await two.collection<{ seq: number }>('counters').put('m_1', { seq: 2 });
      await new Promise((r) => setTimeout(r, 300));
      expect(changes).toBe(2);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe.skipIf(!host)('docstore close (Firestore emulator)', () => {
  it('lets the reads and writes under way finish before it ends the client', async () => {
    const namespace = `t${randomUUID().slice(0, 8)}_`;
    const store = createStore({ backend: 'docstore', projectId: 'demo-store-test', namespace });
    const items = store.collection<{ n: number }>('items');
    await items.put('a', { n: 1 });
    // Not awaited: the service is shutting down while a stream's read and a write are on the wire.
    const read = items.query({ where: [['n', '==', 1]], limit: 5 });
    const write = items.put('b', { n: 2 });
    await store.close();
    await expect(read).resolves.toMatchObject({ items: [{ n: 1 }] });
    await expect(write).resolves.toBeUndefined();
  });
});

describe.skipIf(!host)('docstore bursts on one document (Firestore emulator)', () => {
  it('takes 30 updates of one document at once without a 503: each lands, none is lost', async () => {
    const store = createStore({
      backend: 'docstore',
      projectId: 'demo-store-test',
      namespace: `t${randomUUID().slice(0, 8)}_`,
    });
    try {
      const counters = store.collection<{ n: number }>('counters');
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, () => counters.update('hot', (c) => ({ n: (c?.n ?? 0) + 1 }))),
      );
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      expect((await counters.get('hot'))?.n).toBe(30);
    } finally {
      await store.close();
    }
  });
});
