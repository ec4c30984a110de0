// Updates of one Firestore document run one at a time within a process (firestore-collection.ts).
// A transaction stuck on an unanswering Firestore must not hold the ones behind it past their own
// deadline: the queue lets go of it when its caller has had its 503.
import { describe, expect, it } from 'vitest';
import { aroundCalls } from '../src/around-calls.ts';
import { firestoreCollection } from '../src/firestore-collection.ts';
import { createFirestoreDeadlines, runCollectionCall } from '../src/firestore-faults.ts';
import { inTurnPerKey } from '../src/in-turn.ts';

type Counter = { n: number };

/** A database whose first read never answers (Firestore away); every later one answers at once. */
function firstReadHangs() {
  let hung = false;
  let data: Counter = { n: 0 };
  const db = {
    collection: () => ({ doc: (id: string) => ({ id }) }),
    runTransaction: async (work: (tx: unknown) => Promise<unknown>) =>
      work({
        get: async () => {
          if (!hung) {
            hung = true;
            await new Promise(() => {});
          }
          return { exists: true, data: () => data };
        },
        set: (_ref: unknown, doc: Counter) => {
          data = doc;
        },
        delete: () => {},
      }),
  };
  return { db, value: () => data.n };
}

describe('Firestore updates of one document, in turn', () => {
  it('lets the queue go on when a stuck transaction’s caller has had its 503', async () => {
    const { db, value } = firstReadHangs();
    const deadlines = createFirestoreDeadlines();
    const counters = aroundCalls(
      firestoreCollection<Counter>(
        async () => ({ db, sdk: {} }) as never,
        'counters',
        'counters',
        deadlines.onReturn,
        inTurnPerKey(),
      ),
      (call, run) => runCollectionCall(deadlines, call, run),
    );
    const stuck = counters.update('hot', (c) => ({ n: (c?.n ?? 0) + 1 })).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 300));
    const behind = await counters.update('hot', (c) => ({ n: (c?.n ?? 0) + 1 })).catch((err: Error) => err);
    expect(behind).toMatchObject({ changed: true, doc: { n: 1 } });
    expect(await stuck).toMatchObject({ name: 'StoreUnavailableError', code: 'FIRESTORE_TIMEOUT' });
    expect(value()).toBe(1);
  }, 20_000);
});
