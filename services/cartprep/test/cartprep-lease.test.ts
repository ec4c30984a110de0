import { afterEach, describe, expect, it } from 'vitest';
import { buildCartprep, job } from './cartprep-harness.ts';

let t: Awaited<ReturnType<typeof buildCartprep>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('cart-prep leases', () => {
  it('keeps the lease of a live job that runs longer than the lease: recovery leaves it alone, one cart, one callback', async () => {
    t = await buildCartprep({ CARTPREP_LEASE_SECONDS: '0.3', CARTPREP_MAX_ATTEMPTS: '2' });
    await t.create(job({ url: 'https://shop.example.com/p/rain-jacket?simulateDelayMs=1200' }));
    const running = t.process('cpj_testjob0001');
    // Well past the first lease, while the job is still preparing: a recovery sweep (another
    // replica's, or this one's) must not take it for a crashed one.
    for (const wait of [500, 300]) {
      await sleep(wait); // 0.5 s, then 0.8 s after the claim
      await t.app.ctx.runner.recover();
      expect((await t.app.ctx.jobs.get('cpj_testjob0001'))?.status).toBe('RUNNING');
    }
    expect((await running).json()).toMatchObject({ status: 'SUCCEEDED', attempts: 1, errorCode: null });
    expect(t.gateway.calls.map((c) => c.url)).toEqual([
      '/api/v1/households/h_home/requests/pr_one/cart-ready',
    ]);
  });

  it('stops an attempt whose job was taken from it, and records nothing from it', async () => {
    t = await buildCartprep({ CARTPREP_LEASE_SECONDS: '0.3' });
    await t.create(job({ url: 'https://shop.example.com/p/rain-jacket?simulateDelayMs=5000' }));
    const started = Date.now();
    const running = t.process('cpj_testjob0001');
    await sleep(150);
    // Another worker decided this attempt was dead (e.g. its process froze past the lease).
    await t.app.ctx.jobs.change('cpj_testjob0001', (j) => ({ ...j, status: 'QUEUED', leaseUntil: 0 }));
    expect((await running).json()).toMatchObject({ status: 'QUEUED', attempts: 1 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(t.gateway.calls).toEqual([]);
  });
});
