import { describe, expect, it } from 'vitest';
import { firestoreCollection } from '../src/firestore-collection.ts';
import { createFirestoreDeadlines } from '../src/firestore-faults.ts';
import type { FirestoreContext } from '../src/firestore-store.ts';

// A watch (the orchestrator's listener on a mission's event counter) across a Firestore outage.
// The SDK re-opens a broken listener only after its own backoff (up to a minute) and tells
// nobody meanwhile; the store attaches a fresh one as soon as Firestore answers again. A fake
// client stands in for the SDK here, so the test needs no emulator and no clock.

type Snapshot = { exists: boolean; data: () => unknown };
type Listener = { next: (snap: Snapshot) => void; stopped: boolean };

function fakeFirestore() {
  const listeners: Listener[] = [];
  const doc = () => ({
    onSnapshot(next: (snap: Snapshot) => void) {
      const listener: Listener = { next, stopped: false };
      listeners.push(listener);
      return () => {
        listener.stopped = true;
      };
    },
  });
  const context = { sdk: {}, db: { collection: () => ({ doc }) } } as unknown as FirestoreContext;
  return { listeners, connect: async () => context };
}

const snapshotOf = (data: unknown): Snapshot => ({ exists: data !== null, data: () => data });
/** Lets the watch's connect (a resolved promise) and what follows it run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('docstore watch after an outage', () => {
  it('attaches a fresh listener once Firestore answers again, and hears the document through it', async () => {
    const fake = fakeFirestore();
    const deadlines = createFirestoreDeadlines();
    const counters = firestoreCollection<{ seq: number }>(
      fake.connect,
      'counters',
      'counters',
      deadlines.onReturn,
    );
    const seen: Array<number | null> = [];
    const stop = counters.watch!(
      'msn_1',
      (doc) => seen.push(doc?.seq ?? null),
      () => {},
    );
    await settle();
    expect(fake.listeners).toHaveLength(1);

    // An answer while Firestore was never away changes nothing.
    await deadlines.run(Promise.resolve('ok'), 'read');
    await settle();
    expect(fake.listeners).toHaveLength(1);

    // Away (a failed readiness ping), then back: the old listener is replaced by a new one.
    deadlines.lost();
    await deadlines.run(Promise.resolve('ok'), 'read');
    await settle();
    expect(fake.listeners).toHaveLength(2);
    expect(fake.listeners.map((l) => l.stopped)).toEqual([true, false]);
    fake.listeners[1]!.next(snapshotOf({ seq: 7 }));
    expect(seen).toEqual([7]);

    // Stopped: a later return attaches nothing.
    stop();
    expect(fake.listeners[1]!.stopped).toBe(true);
    deadlines.lost();
    deadlines.answered();
    await settle();
    expect(fake.listeners).toHaveLength(2);
  });
});
