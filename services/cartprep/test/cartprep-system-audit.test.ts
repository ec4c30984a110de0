import { afterEach, describe, expect, it } from 'vitest';
import { buildCartprep, job } from './cartprep-harness.ts';

let t: Awaited<ReturnType<typeof buildCartprep>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The entries cart-prep appended to a household's audit log at the fake ledger. */
const entries = (h: NonNullable<typeof t>, householdId = 'h_home') =>
  h.audit.calls
    .filter((c) => c.method === 'POST' && c.url === `/api/v1/households/${householdId}/audit/events`)
    .map((c) => c.body as Record<string, unknown>);

describe('cart-prep SYSTEM audit entries', () => {
  it('reports a gateway callback given up for good in the household log', async () => {
    t = await buildCartprep();
    t.gateway.state.status = 422;
    await t.create(job());
    await t.process('cpj_testjob0001');
    expect(await t.app.ctx.callbacks.outbox.pending()).toBe(0);
    const system = entries(t).filter((e) => e.category === 'SYSTEM');
    expect(system).toHaveLength(1);
    expect(system[0]).toMatchObject({
      action: 'OUTBOX_DELIVERY_ABANDONED',
      severity: 'WARNING',
      sourceService: 'cartprep',
      targetType: 'PURCHASE_REQUEST',
      targetId: 'pr_one',
      detail: { outbox: 'gateway_callbacks', callback: 'cart-ready', jobId: 'cpj_testjob0001' },
    });
  });

  it('writes nothing when the callback is delivered', async () => {
    t = await buildCartprep();
    await t.create(job());
    await t.process('cpj_testjob0001');
    expect(entries(t)).toEqual([]);
  });

  it('records JOB_DEAD_LETTERED once when the executor fails on every attempt', async () => {
    const failing = {
      name: 'failing',
      prepare: async () => {
        throw new Error('merchant page never loaded');
      },
    };
    t = await buildCartprep({ CARTPREP_MAX_ATTEMPTS: '2' }, undefined, failing);
    await t.create(job());
    await t.process('cpj_testjob0001');
    expect((await t.get('cpj_testjob0001')).json()).toMatchObject({ status: 'QUEUED', attempts: 1 });
    expect(entries(t)).toEqual([]);
    await t.process('cpj_testjob0001');
    expect((await t.get('cpj_testjob0001')).json()).toMatchObject({ status: 'FAILED', attempts: 2 });
    expect(entries(t)).toEqual([
      expect.objectContaining({
        category: 'SYSTEM',
        severity: 'WARNING',
        action: 'JOB_DEAD_LETTERED',
        targetType: 'CARTPREP_JOB',
        targetId: 'cpj_testjob0001',
        detail: expect.objectContaining({ jobType: 'CARTPREP_JOB', attempts: 2 }),
      }),
    ]);
  });

  it('records JOB_DEAD_LETTERED when the last attempt is lost with its worker', async () => {
    t = await buildCartprep({ CARTPREP_MAX_ATTEMPTS: '1', CARTPREP_LEASE_SECONDS: '0.05' });
    await t.create(job());
    expect(await t.app.ctx.runner.claim('cpj_testjob0001')).not.toBeNull(); // the worker "crashed"
    await new Promise((r) => setTimeout(r, 80));
    await t.app.ctx.runner.recover();
    expect(entries(t).map((e) => e.action)).toEqual(['JOB_DEAD_LETTERED']);
  });

  it('does not dead-letter a job the shop refused: that is the job’s answer, not a given-up job', async () => {
    t = await buildCartprep({}, undefined, {
      name: 'refusing',
      prepare: async () => ({
        ok: false as const,
        errorCode: 'SIZE_UNAVAILABLE' as const,
        message: 'Sold out in M',
      }),
    });
    await t.create(job());
    await t.process('cpj_testjob0001');
    expect((await t.get('cpj_testjob0001')).json()).toMatchObject({ status: 'FAILED' });
    expect(entries(t)).toEqual([]);
  });
});
