// The job's deadline holds whatever the executor does: one stuck in a call that never answers
// and ignores its abort (a frozen browser) must not keep the job RUNNING, its lease renewed and
// the shared queue waiting on it.
import { afterEach, describe, expect, it } from 'vitest';
import type { CartExecutor } from '../src/adapters/cart-executor.ts';
import { buildCartprep, job } from './cartprep-harness.ts';

let t: Awaited<ReturnType<typeof buildCartprep>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Never answers and never looks at its signal. */
const frozenExecutor = (): CartExecutor & { calls: number } => {
  const executor = {
    name: 'frozen',
    calls: 0,
    prepare: () => {
      executor.calls++;
      return new Promise<never>(() => {});
    },
  };
  return executor;
};

describe('cart-prep job deadline', () => {
  it('fails a job whose executor never answers with TIMEOUT at its deadline, and stops renewing its lease', async () => {
    const executor = frozenExecutor();
    t = await buildCartprep(
      { CARTPREP_JOB_TIMEOUT_SECONDS: '0.5', CARTPREP_LEASE_SECONDS: '0.3', CARTPREP_MAX_ATTEMPTS: '3' },
      undefined,
      executor,
    );
    await t.create(job());
    const started = Date.now();
    const done = await t.process('cpj_testjob0001');
    const took = Date.now() - started;

    expect(done.json()).toMatchObject({
      status: 'FAILED',
      errorCode: 'TIMEOUT',
      errorMessage: 'Cart preparation passed its deadline',
      attempts: 1,
    });
    // The deadline (0.5 s) plus the executor's grace to answer with evidence (2 s).
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(4000);
    expect(executor.calls).toBe(1);
    await t.app.ctx.callbacks.outbox.drain();
    expect(t.gateway.calls.map((c) => [c.url, (c.body as { errorCode?: string }).errorCode])).toEqual([
      ['/api/v1/households/h_home/requests/pr_one/failed', 'TIMEOUT'],
    ]);

    // Nothing renews the lease of the abandoned attempt any more.
    const after = await t.app.ctx.jobs.get('cpj_testjob0001');
    await sleep(400);
    expect(await t.app.ctx.jobs.get('cpj_testjob0001')).toEqual(after);
  }, 15_000);
});
