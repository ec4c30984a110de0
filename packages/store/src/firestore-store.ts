import type { Firestore } from '@google-cloud/firestore';
import { aroundCalls } from './around-calls.ts';
import { firestoreCollection } from './firestore-collection.ts';
import { createFirestoreDeadlines, runCollectionCall } from './firestore-faults.ts';
import { inTurnPerKey } from './in-turn.ts';
import { assertCollectionName, assertNamespace } from './names.ts';
import type { Collection, Doc, Store } from './types.ts';

export interface FirestoreStoreConfig {
  projectId: string;
  databaseId?: string;
  /** Prefix for every collection id, so services and test runs can share one database. */
  namespace?: string;
}

export type FirestoreSdk = typeof import('@google-cloud/firestore');
export interface FirestoreContext {
  sdk: FirestoreSdk;
  db: Firestore;
}

const PING_TIMEOUT_MS = 3000;
/** How long `close` waits for the reads and writes under way before it ends the client. */
const CLOSE_WAIT_MS = 5000;

/**
 * Firestore (`docstore`) backend. The SDK is loaded on first use: it takes a noticeable share of
 * startup time, and services on the other backends never need it.
 */
export function createFirestoreStore(config: FirestoreStoreConfig): Store {
  const namespace = config.namespace ?? '';
  assertNamespace(namespace);
  let context: Promise<FirestoreContext> | undefined;
  const connect = (): Promise<FirestoreContext> => {
    context ??= import('@google-cloud/firestore').then((sdk) => ({
      sdk,
      db: new sdk.Firestore({
        projectId: config.projectId,
        ...(config.databaseId ? { databaseId: config.databaseId } : {}),
        // Documents are JSON-like; an optional field left undefined should be dropped, not fail.
        ignoreUndefinedProperties: true,
        // Against the emulator, a known universe domain stops google-auth probing the cloud
        // metadata server (a network call off this machine) before the first request.
        ...(process.env.FIRESTORE_EMULATOR_HOST ? { universeDomain: 'googleapis.com' } : {}),
      }),
    }));
    return context;
  };

  // Calls under way: the client ended under a running query retries it on the ended client, and
  // that rejects a promise of the SDK's own which nobody can handle (the process exits on it).
  const underWay = new Set<Promise<unknown>>();
  const track = <R>(call: Promise<R>): Promise<R> => {
    underWay.add(call);
    const settled = () => underWay.delete(call);
    call.then(settled, settled);
    return call;
  };
  // Every call is bounded: Firestore away (down, stopped, unreachable) is a 503 within seconds,
  // not a request held for the SDK's minute of retries.
  const deadlines = createFirestoreDeadlines();
  // One queue per document for the whole process, whichever repository's collection object writes it.
  const inTurn = inTurnPerKey();

  return {
    backend: 'docstore',
    collection<T extends Doc>(name: string): Collection<T> {
      assertCollectionName(name);
      return aroundCalls(
        firestoreCollection<T>(connect, name, `${namespace}${name}`, deadlines.onReturn, inTurn, track),
        (call, run) => runCollectionCall(deadlines, call, () => track(run())),
      );
    },
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS);
      });
      try {
        // A point read of a document that need not exist: the cheapest round trip there is.
        const read = track(
          connect().then(({ db }) => db.collection(`${namespace}storeping`).doc('ping').get()),
        );
        await Promise.race([read, timeout]);
        deadlines.answered();
        return true;
      } catch {
        deadlines.lost();
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (!context) return;
      const { db } = await context;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...underWay]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      await db.terminate();
    },
  };
}
