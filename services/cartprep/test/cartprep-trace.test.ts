// A job continues the trace of the request that submitted it: the background worker's run and
// the callback its outbox delivers carry that trace id to the gateway.
import { randomBytes } from 'node:crypto';
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, loadCartprepConfig } from '../src/index.ts';
import { CARTPREP_TOKEN, job, startFakeGateway } from './cartprep-harness.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('trace context across jobs and outbox deliveries', () => {
  it('sends the submitting request’s trace id on the callback made by the background worker', async () => {
    const gateway = await startFakeGateway();
    cleanup.push(() => gateway.close());
    const config = loadCartprepConfig({
      APP_ENV: 'test',
      GATEWAY_BASE_URL: gateway.url,
      CARTPREP_INTERNAL_TOKEN: CARTPREP_TOKEN,
      BUYFLOW_INTERNAL_TOKEN: 'test-buyflow-token',
      CARTPREP_POLL_MS: '50',
    });
    const app = await buildApp({ config, store: createStore({ backend: 'inmemory' }) });
    cleanup.push(() => app.close());
    await app.ready();

    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/cartprep/jobs',
      headers: { 'x-internal-token': CARTPREP_TOKEN, traceparent: `00-${traceId}-${callerSpan}-01` },
      payload: job(),
    });
    expect(created.statusCode).toBe(201);
    await vi.waitFor(() => expect(gateway.calls.length).toBe(1), { timeout: 5000 });
    expect(gateway.calls[0]).toMatchObject({
      method: 'POST',
      body: { jobId: 'cpj_testjob0001', cart: { subtotal: 80 } },
    });
    const [, sentTrace, sentSpan] = String(gateway.headers[0]?.traceparent).split('-');
    expect(sentTrace).toBe(traceId);
    // The delivery is a span of its own in that trace, not the caller's.
    expect(sentSpan).toMatch(/^[0-9a-f]{16}$/);
    expect(sentSpan).not.toBe(callerSpan);
  });
});
