// A store briefly locked by another process (a backup, an sqlite shell holding BEGIN IMMEDIATE)
// while a job runs: the live worker must finish the job moments after the lock goes, not leave it
// RUNNING under its own lease until recovery takes it for a dead worker's (two minutes).
import { type CollectionOptions, createStore, type Store, StoreUnavailableError } from '@hs/store';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCartprep, CARTPREP_TOKEN, job } from './cartprep-harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The store, with every write to the jobs refused as SQLITE_BUSY (what @hs/store answers past its
 * busy timeout) while `lock.held`; `onRunning` is told when a job is first claimed.
 */
function lockableStore(onRunning: () => void) {
  const inner = createStore({ backend: 'inmemory' });
  const lock = { held: false, refused: 0 };
  let claimed = false;
  const busy = () => {
    lock.refused++;
    return new StoreUnavailableError(
      'SQLITE_BUSY',
      'Storage is busy (another process holds its lock): the change was not saved',
    );
  };
  const store: Store = {
    ...inner,
    collection: ((name: string, options?: CollectionOptions) => {
      const c = inner.collection(name, options);
      if (name !== 'cartprep_jobs') return c;
      return {
        ...c,
        update: async (id, mutate) => {
          if (lock.held) throw busy();
          const result = await c.update(id, mutate);
          const status = (result.doc as { status?: string } | null)?.status;
          if (status === 'RUNNING' && !claimed) {
            claimed = true;
            onRunning();
          }
          return result;
        },
      } as typeof c;
    }) as Store['collection'],
  };
  return { store, lock };
}

/** The callback's outbox item: a first delivery that failed leaves `attempts` and `lastError`. */
const callbackItem = (store: Store) =>
  store
    .collection<{ id: string; state: string; attempts: number; lastError: string | null }>(
      'outbox_gateway_callbacks',
    )
    .get('cpj_testjob0001-SUCCEEDED');

/** Cart-prep with its worker loop and callback outbox running, as in production. */
const startCartprep = (store: Store) => buildCartprep({ CARTPREP_POLL_MS: '50' }, store, undefined, true);

let t: Awaited<ReturnType<typeof startCartprep>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const headers = { 'x-internal-token': CARTPREP_TOKEN };

/** Waits until `check` holds, polling; answers how long it took. */
async function until(check: () => Promise<boolean> | boolean, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await check()) return Date.now() - started;
    await sleep(25);
  }
  throw new Error(`not within ${withinMs} ms`);
}

describe('cart-prep on a store locked by another process', () => {
  it('records the result and calls the gateway within moments of the lock going, not after the lease', async () => {
    const LOCK_MS = 2_500;
    let releasedAt = 0;
    const { store, lock } = lockableStore(() => {
      // The lock is taken while the executor prepares the cart (1 s), and held past its answer.
      setTimeout(() => {
        lock.held = true;
      }, 200);
      setTimeout(() => {
        lock.held = false;
        releasedAt = Date.now();
      }, 200 + LOCK_MS);
    });
    // The default 120 s lease: only a dead worker should ever wait for it.
    t = await startCartprep(store);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cartprep/jobs',
      // The gateway's request gives up after 1.5 s; the job and its callback outlive it.
      headers: { ...headers, 'x-request-timeout-ms': '1500' },
      payload: job({ url: 'https://shop.example.com/p/rain-jacket?simulateDelayMs=1000' }),
    });
    expect(created.statusCode).toBe(201);
    const app = t.app;
    const gateway = t.gateway;
    await until(() => releasedAt > 0, 10_000);
    expect(lock.refused).toBeGreaterThan(0);
    // Finished and reported within a few seconds of the release (before: 120 s, the lease).
    const recordedIn = await until(
      async () => (await app.ctx.jobs.get('cpj_testjob0001'))?.status === 'SUCCEEDED',
      4_000,
    );
    const calledIn = await until(() => gateway.calls.length > 0, 4_000);
    expect(recordedIn + calledIn).toBeLessThan(4_000);
    expect(await app.ctx.jobs.get('cpj_testjob0001')).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 1,
      callbackPending: false,
    });
    expect(gateway.calls.map((c) => c.url)).toEqual(['/api/v1/households/h_home/requests/pr_one/cart-ready']);
    // The callback had its own time budget, not what was left of the submitting request's.
    expect(Number(gateway.headers[0]?.['x-request-timeout-ms'])).toBeGreaterThan(1500);
    expect(await callbackItem(store)).toMatchObject({ state: 'delivered', attempts: 0, lastError: null });
  }, 20_000);

  it('gives a background job and its callback their own time budget, not the expired deadline of the request that woke the worker', async () => {
    const { store } = lockableStore(() => {});
    t = await startCartprep(store);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cartprep/jobs',
      headers: { ...headers, 'x-request-timeout-ms': '300' },
      payload: job({ url: 'https://shop.example.com/p/rain-jacket?simulateDelayMs=800' }),
    });
    expect(created.statusCode).toBe(201);
    const gateway = t.gateway;
    // The job finishes long after the request's 300 ms: its first callback goes through at once.
    await until(() => gateway.calls.length > 0, 3_000);
    expect(gateway.calls.map((c) => c.url)).toEqual(['/api/v1/households/h_home/requests/pr_one/cart-ready']);
    expect(Number(gateway.headers[0]?.['x-request-timeout-ms'])).toBeGreaterThan(300);
    // Its first delivery went through: none failed with "no time was left of the request's deadline".
    expect(await callbackItem(store)).toMatchObject({ state: 'delivered', attempts: 0, lastError: null });
  }, 10_000);
});
