// /metrics shows what waits: queued jobs and how long the oldest has waited, and callbacks the
// gateway has not taken yet.
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CartExecutor } from '../src/adapters/cart-executor.ts';
import { createSimulatedExecutor } from '../src/adapters/simulated-executor.ts';
import { buildApp, loadCartprepConfig } from '../src/index.ts';
import { CARTPREP_TOKEN, job, startFakeGateway } from './cartprep-harness.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** The simulated executor, held until `release()`. */
function heldExecutor() {
  const simulated = createSimulatedExecutor({ honourUrlParams: true });
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const executor: CartExecutor = {
    name: 'held',
    prepare: async (j, signal) => {
      await Promise.race([gate, new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
      return simulated.prepare(j, signal);
    },
  };
  return { executor, release };
}

describe('cart-prep metrics', () => {
  it('reports the job queue depth, the oldest job’s age and the callback backlog', async () => {
    const gateway = await startFakeGateway();
    gateway.state.status = 503; // callbacks stay in the outbox
    cleanup.push(() => gateway.close());
    const held = heldExecutor();
    const config = loadCartprepConfig({
      APP_ENV: 'test',
      GATEWAY_BASE_URL: gateway.url,
      CARTPREP_INTERNAL_TOKEN: CARTPREP_TOKEN,
      BUYFLOW_INTERNAL_TOKEN: 'test-buyflow-token',
      CARTPREP_CONCURRENCY: '1',
      CARTPREP_POLL_MS: '50',
      CARTPREP_CALLBACK_RETRY_MAX_SECONDS: '30',
    });
    const app = await buildApp({
      config,
      store: createStore({ backend: 'inmemory' }),
      executor: held.executor,
    });
    cleanup.push(async () => {
      held.release();
      await app.close();
    });
    await app.ready();
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;

    for (const n of [1, 2, 3]) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/cartprep/jobs',
        headers: { 'x-internal-token': CARTPREP_TOKEN },
        payload: job({ jobId: `cpj_metricsjob000${n}`, requestId: `pr_${n}` }),
      });
      expect(created.statusCode).toBe(201);
    }
    // One runs (held), two wait.
    await vi.waitFor(
      async () => expect(await scrape()).toMatch(/^job_queue_depth\{queue="cart-prep"\} 2$/m),
      {
        timeout: 5000,
      },
    );
    expect(await scrape()).toMatch(
      /^job_queue_oldest_age_seconds\{queue="cart-prep"\} \d+(\.\d+)?(e-\d+)?$/m,
    );
    expect(await scrape()).toMatch(/^outbox_backlog\{outbox="gateway_callbacks"\} 0$/m);

    held.release();
    // All three finish; the gateway refuses their callbacks, which wait in the outbox.
    await vi.waitFor(
      async () => {
        const text = await scrape();
        expect(text).toMatch(/^job_queue_depth\{queue="cart-prep"\} 0$/m);
        expect(text).toMatch(/^job_queue_oldest_age_seconds\{queue="cart-prep"\} 0$/m);
        expect(text).toMatch(/^outbox_backlog\{outbox="gateway_callbacks"\} 3$/m);
      },
      { timeout: 10_000 },
    );
  });
});
