import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { FIRESTORE_EMULATOR_JAR, firestoreEmulatorUnavailableReason } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store, StoreUnavailableError } from '../src/index.ts';

// Firestore going away under a running service: stopped (SIGSTOP, it holds connections and
// answers nothing), killed, and back. Every call must end within seconds with the store's 503
// error, ping (readiness) must say so, and the same store must work again once it is back.
// This file starts its own emulator, whose process it can stop, on a port of its own.

const unavailable = firestoreEmulatorUnavailableReason();
if (unavailable)
  console.warn(`Firestore emulator not available (${unavailable}): emulator fault tests SKIPPED`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

const EMULATOR_START_MS = 90_000;

/** The emulator in its own process group, answering HTTP on `port`. */
async function startEmulator(port: number): Promise<ChildProcess> {
  const child = spawn(
    'java',
    [
      '-cp',
      FIRESTORE_EMULATOR_JAR,
      'com.google.cloud.datastore.emulator.firestore.CloudFirestore',
      'start',
      '--host=127.0.0.1',
      `--port=${port}`,
      '--database-mode=firestore-native',
    ],
    { detached: true, stdio: 'ignore' },
  );
  // A JVM starting on a machine busy with a whole suite (or two) can take well over 30 s.
  const deadline = Date.now() + EMULATOR_START_MS;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  signal(child, 'SIGKILL');
  throw new Error('the Firestore emulator did not start');
}

function signal(child: ChildProcess | undefined, name: NodeJS.Signals): void {
  try {
    if (child?.pid) process.kill(-child.pid, name);
  } catch {
    // Already gone.
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** The call's outcome, caught: a value, or the error it failed with. */
const outcome = <T>(call: Promise<T>) =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe.skipIf(unavailable !== null)('docstore while Firestore goes away (own emulator)', () => {
  let emulator: ChildProcess | undefined;
  let store: Store;
  let port: number;
  const previousHost = process.env.FIRESTORE_EMULATOR_HOST;

  beforeAll(async () => {
    port = await freePort();
    emulator = await startEmulator(port);
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
    store = createStore({
      backend: 'docstore',
      projectId: 'demo-faults',
      namespace: `t${randomUUID().slice(0, 8)}_`,
    });
    // A cold emulator takes seconds over its first writes: warm it before any test times a call.
    const warm = store.collection<{ id: string }>('warmup');
    const warmUntil = Date.now() + 30_000;
    while ('error' in (await outcome(warm.put('w', { id: 'w' }))) && Date.now() < warmUntil)
      await new Promise((r) => setTimeout(r, 200));
  }, EMULATOR_START_MS + 60_000);
  afterAll(async () => {
    await store?.close();
    signal(emulator, 'SIGCONT');
    signal(emulator, 'SIGKILL');
    if (previousHost === undefined) delete process.env.FIRESTORE_EMULATOR_HOST;
    else process.env.FIRESTORE_EMULATOR_HOST = previousHost;
  });

  const expectUnavailable = (result: object) => {
    const { error } = result as { error?: unknown };
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toMatch(/^FIRESTORE_(TIMEOUT|UNAVAILABLE)$/);
  };

  it('a transaction cut off while Firestore was stopped never commits once it is back', async () => {
    const budgets = store.collection<{ id: string; reserved: number }>('budgets');
    await budgets.put('b1', { id: 'b1', reserved: 0 });
    signal(emulator, 'SIGSTOP');
    // The caller is told 503 "may or may not have been saved" at the transaction's deadline...
    expectUnavailable(
      await outcome(budgets.update('b1', (doc) => (doc ? { ...doc, reserved: doc.reserved + 60 } : null))),
    );
    signal(emulator, 'SIGCONT');
    await expect.poll(() => store.ping(), { timeout: 20_000, interval: 200 }).toBe(true);
    // ...and the SDK, which goes on with the attempt it had under way, does not commit it later:
    // a budget reserved behind the back of an approval that failed would count against the family.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await budgets.get('b1')).toEqual({ id: 'b1', reserved: 0 });
  }, 60_000);

  it(
    'answers 503-worthy errors, not hangs, while stopped or killed, and works again once it is back',
    async () => {
      const offers = store.collection<{ id: string; n: number }>('offers');
      await offers.put('a', { id: 'a', n: 1 });
      expect(await store.ping()).toBe(true);

      // Stopped: connections stay open, nothing answers.
      signal(emulator, 'SIGSTOP');
      expectUnavailable(await outcome(offers.put('b', { id: 'b', n: 2 })));
      expectUnavailable(await outcome(offers.get('a')));
      expectUnavailable(await outcome(offers.query({ where: [['n', '>=', 0]] })));
      expectUnavailable(await outcome(offers.update('a', (doc) => (doc ? { ...doc, n: doc.n + 1 } : null))));
      expect(await store.ping()).toBe(false);

      // Back from a stop: the same store serves again.
      signal(emulator, 'SIGCONT');
      await expect.poll(() => store.ping(), { timeout: 20_000, interval: 200 }).toBe(true);
      await expect
        .poll(() => outcome(offers.get('a')), { timeout: 20_000, interval: 200 })
        .toHaveProperty('value');

      // Killed: the port refuses connections.
      const gone = emulator!;
      signal(gone, 'SIGKILL');
      await exited(gone);
      expectUnavailable(await outcome(offers.put('c', { id: 'c', n: 3 })));
      expectUnavailable(await outcome(offers.get('a')));
      expect(await store.ping()).toBe(false);

      // A new emulator on the same address (empty: the emulator keeps data in memory).
      emulator = await startEmulator(port);
      await expect.poll(() => store.ping(), { timeout: 30_000, interval: 200 }).toBe(true);
      await expect
        .poll(() => outcome(offers.put('d', { id: 'd', n: 4 })), { timeout: 30_000, interval: 200 })
        .toEqual({ value: undefined });
      expect(await offers.get('d')).toEqual({ id: 'd', n: 4 });
    },
    EMULATOR_START_MS + 120_000,
  );
});
