import { CartprepFailureCode } from '@hs/contracts';
import { PRODUCTION_STORE, productionInternalTokens } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulatedExecutor } from '../src/adapters/simulated-executor.ts';
import { fail, newJob, publicJob } from '../src/domain/job-machine.ts';
import { loadCartprepConfig } from '../src/index.ts';
import { buildCartprep, job } from './cartprep-harness.ts';

/** Settings a production cart-prep boots with (every secret set), plus `extra`. */
const productionEnv = (extra: Record<string, string> = {}) => ({
  ...productionInternalTokens(),
  ...PRODUCTION_STORE,
  APP_ENV: 'production',
  BUYFLOW_INTERNAL_TOKEN: 'x'.repeat(40),
  ARTIFACT_SIGNING_SECRET: 'y'.repeat(40),
  AUTH_JWT_SECRET: 'z'.repeat(40),
  ...extra,
});

let t: Awaited<ReturnType<typeof buildCartprep>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('cart-prep jobs', () => {
  it('queues a job, runs it, and calls the gateway back with the cart', async () => {
    t = await buildCartprep();
    const created = await t.create(job());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      jobId: 'cpj_testjob0001',
      status: 'QUEUED',
      attempts: 0,
      errorCode: null,
      cart: null,
    });
    const done = await t.process('cpj_testjob0001');
    expect(done.json()).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 1,
      cart: {
        items: [{ title: 'Rain jacket', size: 'M', quantity: 2, unitPrice: 40 }],
        subtotal: 80,
        currency: 'EUR',
        merchantDomain: 'shop.example.com',
      },
    });
    expect(done.json().cart.checkoutUrl).toMatch(
      /^https:\/\/shop\.example\.com\/checkout\?cart=[0-9a-f]{16}$/,
    );
    expect(t.gateway.calls).toEqual([
      {
        method: 'POST',
        url: '/api/v1/households/h_home/requests/pr_one/cart-ready',
        token: 'test-buyflow-token',
        body: { jobId: 'cpj_testjob0001', cart: done.json().cart },
      },
    ]);
    // Deterministic: the same job gives the same cart.
    expect((await t.process('cpj_testjob0001')).json()).toEqual(done.json());
  });

  it('is idempotent on jobId and refuses a jobId of another request (409)', async () => {
    t = await buildCartprep();
    expect((await t.create(job())).statusCode).toBe(201);
    const again = await t.create(job());
    expect(again.statusCode).toBe(200);
    expect(again.json().jobId).toBe('cpj_testjob0001');
    expect((await t.create(job({ requestId: 'pr_two' }))).json()).toEqual({
      error: 'CONFLICT',
      message: 'Job id cpj_testjob0001 already belongs to another request',
    });
  });

  it.each(CartprepFailureCode.options)('fails with %s when the url asks for it (simulate=)', async (code) => {
    t = await buildCartprep();
    await t.create(job({ url: `https://shop.example.com/p/x?simulate=${code}` }));
    const done = (await t.process('cpj_testjob0001')).json();
    expect(done).toMatchObject({ status: 'FAILED', errorCode: code, cart: null });
    expect(t.gateway.calls[0]).toMatchObject({
      url: '/api/v1/households/h_home/requests/pr_one/failed',
      body: { jobId: 'cpj_testjob0001', errorCode: code },
    });
  });

  it('a failed job keeps its evidence, in the job and in the failed callback', async () => {
    t = await buildCartprep();
    const url = 'https://shop.example.com/p/x?simulate=LOGIN_REQUIRED';
    await t.create(job({ url }));
    const done = (await t.process('cpj_testjob0001')).json();
    const evidence = {
      finalUrl: url,
      screenshotRef: null,
      reason: 'The site requires signing in (simulated)',
    };
    expect(done).toMatchObject({ status: 'FAILED', errorCode: 'LOGIN_REQUIRED', evidence });
    expect(t.gateway.calls[0]).toMatchObject({ body: { errorCode: 'LOGIN_REQUIRED', evidence } });
  });

  it('a job failed by the service itself keeps at least the reason as evidence', () => {
    const queued = newJob(
      'cpj_testjob0001',
      { householdId: 'h_home', requestId: 'pr_one', url: 'https://shop.example.com/p/x' },
      '2026-01-01T00:00:00.000Z',
    );
    const failed = fail(
      { ...queued, status: 'RUNNING' },
      'INTERNAL_ERROR',
      'Cart preparation did not finish after 3 attempts',
      '2026-01-01T00:00:00.000Z',
    );
    expect(publicJob(failed).evidence).toEqual({
      finalUrl: null,
      screenshotRef: null,
      reason: 'Cart preparation did not finish after 3 attempts',
    });
  });

  it('enforces the domain allowlist at creation (400 POLICY_VIOLATION)', async () => {
    t = await buildCartprep({
      CARTPREP_ENFORCE_DOMAIN_ALLOWLIST: 'true',
      CARTPREP_ALLOWED_DOMAINS: 'example.com',
    });
    expect((await t.create(job())).statusCode).toBe(201);
    const res = await t.create(job({ jobId: 'cpj_testjob0002', url: 'https://evil.test.org/x' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'Domain evil.test.org is not on the allowlist',
    });
  });

  it('answers 404 for unknown jobs and for a job of another household', async () => {
    t = await buildCartprep();
    expect((await t.get('cpj_nothing00')).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Cart-prep job not found',
    });
    expect((await t.process('cpj_nothing00')).statusCode).toBe(404);
    await t.create(job());
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/households/h_home/cartprep/jobs/cpj_testjob0001',
      headers: t.headers,
    });
    expect(mine.statusCode).toBe(200);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/v1/households/h_other/cartprep/jobs/cpj_testjob0001',
      headers: t.headers,
    });
    expect(theirs.json()).toEqual({ error: 'NOT_FOUND', message: 'Cart-prep job not found' });
  });

  it('requires the internal token', async () => {
    t = await buildCartprep();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/cartprep/jobs', payload: job() });
    expect(res.statusCode).toBe(403);
  });

  it('keeps an undelivered callback and delivers it once the gateway answers; a 409 is final', async () => {
    t = await buildCartprep();
    t.gateway.state.status = 503;
    await t.create(job());
    await t.process('cpj_testjob0001');
    expect(await t.app.ctx.callbacks.outbox.pending()).toBe(1);
    t.gateway.state.status = 200;
    await new Promise((r) => setTimeout(r, 600)); // first backoff step
    expect(await t.app.ctx.callbacks.outbox.drain()).toBe(1);
    expect(t.gateway.calls).toHaveLength(2);

    t.gateway.state.status = 409;
    await t.create(job({ jobId: 'cpj_testjob0002' }));
    await t.process('cpj_testjob0002');
    expect(await t.app.ctx.callbacks.outbox.pending()).toBe(0);
  });

  it('recovers a job whose worker died: retried, then FAILED INTERNAL_ERROR after the last attempt', async () => {
    t = await buildCartprep({ CARTPREP_MAX_ATTEMPTS: '2', CARTPREP_LEASE_SECONDS: '0.05' });
    await t.create(job());
    const { runner, jobs } = t.app.ctx;
    expect(await runner.claim('cpj_testjob0001')).not.toBeNull(); // a worker took it and "crashed"
    await new Promise((r) => setTimeout(r, 80));
    await runner.recover();
    expect((await jobs.get('cpj_testjob0001'))?.status).toBe('QUEUED');
    await runner.claim('cpj_testjob0001');
    await new Promise((r) => setTimeout(r, 80));
    await runner.recover();
    expect((await t.get('cpj_testjob0001')).json()).toMatchObject({
      status: 'FAILED',
      errorCode: 'INTERNAL_ERROR',
      attempts: 2,
    });
    expect(t.gateway.calls.at(-1)?.body).toMatchObject({ errorCode: 'INTERNAL_ERROR' });
  });

  it('runs queued jobs by itself with the worker', async () => {
    t = await buildCartprep({ CARTPREP_POLL_MS: '20' });
    t.app.ctx.worker.start();
    await t.create(job());
    await t.create(job({ jobId: 'cpj_testjob0002', requestId: 'pr_two' }));
    const deadline = Date.now() + 5000;
    while (t.gateway.calls.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await t.app.ctx.worker.stop();
    expect(t.gateway.calls.map((c) => c.url).sort()).toEqual([
      '/api/v1/households/h_home/requests/pr_one/cart-ready',
      '/api/v1/households/h_home/requests/pr_two/cart-ready',
    ]);
  });
});

describe('cart-prep fairness between households', () => {
  it('refuses a household more jobs queued or running than CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD (429), never another household, a replay or a freed slot', async () => {
    const prep = await buildCartprep({ CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '2' });
    try {
      const mine = (n: number) => job({ jobId: `cpj_mine000${n}`, requestId: `pr_mine${n}` });
      expect((await prep.create(mine(1))).statusCode).toBe(201);
      expect((await prep.create(mine(2))).statusCode).toBe(201);
      const third = await prep.create(mine(3));
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(third.json()).toEqual({
        error: 'RATE_LIMITED',
        message: 'This household already has 2 carts being prepared; try again when one is done',
      });
      expect((await prep.get('cpj_mine0003')).statusCode).toBe(404);
      // The same job again is the one already queued (200), and another household has its own room.
      expect((await prep.create(mine(1))).statusCode).toBe(200);
      const other = await prep.create(
        job({ jobId: 'cpj_other0001', householdId: 'h_other', requestId: 'pr_other' }),
      );
      expect(other.statusCode).toBe(201);
      // A finished job frees its slot.
      expect((await prep.process('cpj_mine0001')).statusCode).toBe(200);
      expect((await prep.get('cpj_mine0001')).json().status).toBe('SUCCEEDED');
      expect((await prep.create(mine(3))).statusCode).toBe(201);
    } finally {
      await prep.close();
    }
  });

  it('ignores simulate= and simulateDelayMs= in staging and production, where they would hold the shared workers', async () => {
    const url = 'https://shop.example.com/p/scarf?simulate=TIMEOUT&simulateDelayMs=30000';
    const steered = { ...job({ url }), attempts: 1, hint: {} } as never;
    const devResult = await createSimulatedExecutor({ honourUrlParams: true }).prepare(
      steered,
      AbortSignal.timeout(50),
    );
    expect(devResult).toMatchObject({ ok: false, errorCode: 'TIMEOUT' });
    const started = Date.now();
    const prodResult = await createSimulatedExecutor({ honourUrlParams: false }).prepare(
      steered,
      new AbortController().signal,
    );
    expect(prodResult.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    const production = loadCartprepConfig(productionEnv());
    expect(production.cartprep.simulationParams).toBe(false);
    expect(loadCartprepConfig({ APP_ENV: 'test' }).cartprep.simulationParams).toBe(true);
  });
});

describe('cart-prep configuration', () => {
  it('refuses ALLOW_PRIVATE_MERCHANT_HOSTS in production, accepts it in test', () => {
    expect(() =>
      loadCartprepConfig({ APP_ENV: 'test', ALLOW_PRIVATE_MERCHANT_HOSTS: '127.0.0.1:9000' }),
    ).not.toThrow();
    expect(() =>
      loadCartprepConfig(productionEnv({ ALLOW_PRIVATE_MERCHANT_HOSTS: '127.0.0.1:9000' })),
    ).toThrow('Configuration error: ALLOW_PRIVATE_MERCHANT_HOSTS is not allowed when APP_ENV=production');
  });
  it('refuses an enforced allowlist without domains', () => {
    expect(() => loadCartprepConfig({ CARTPREP_ENFORCE_DOMAIN_ALLOWLIST: 'true' })).toThrow(
      /CARTPREP_ALLOWED_DOMAINS/,
    );
  });
});
