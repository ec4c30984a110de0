import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackClient } from './buyflow-harness.ts';

// Real processes: cart-prep on sqlite (its jobs survive a kill -9) with a short lease, the
// gateway, and artifacts-audit (to count the CART_READY gate entries in the ledger).
let stack: RunningStack;
const CARTPREP_TOKEN = { 'x-internal-token': 'dev-internal-token-cartprep' };

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'cartprep', 'artifacts-audit'],
    durable: true,
    perService: {
      gateway: { AUDIT_RETRY_MAX_SECONDS: '1' },
      cartprep: {
        CARTPREP_POLL_MS: '50',
        CARTPREP_LEASE_SECONDS: '2',
        CARTPREP_CALLBACK_RETRY_MAX_SECONDS: '1',
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const { call, login, until } = stackClient(() => stack);

const job = async (jobId: string) =>
  (await (
    await fetch(`${stack.url('cartprep')}/api/v1/cartprep/jobs/${jobId}`, { headers: CARTPREP_TOKEN })
  ).json()) as { status: string; attempts: number };

describe('cart-prep killed in the middle of a job', () => {
  it('retries the job after its lease once restarted, and the request reaches CART_READY with one callback', async () => {
    const parent = await login('crash-parent');
    const adult = await login('crash-adult');
    const household = (await call('POST', '/api/v1/households', parent.token, { name: 'Crash home' })).body;
    const h = `/api/v1/households/${household.householdId}`;
    await call('POST', `${h}/members`, parent.token, { memberId: adult.userId, role: 'ADULT' });
    const pr = (
      await call('POST', `${h}/requests`, adult.token, {
        title: 'Wool coat',
        url: 'https://shop.example.com/p/wool-coat?simulateDelayMs=2500',
        price: 120,
        currency: 'EUR',
        size: 'L',
      })
    ).body;
    const r = `${h}/requests/${pr.requestId}`;
    expect((await call('POST', `${r}/approve`, parent.token, {})).status).toBe(200);
    const intent = (await call('POST', `${r}/purchase-intents`, adult.token, {})).body;

    await until('the job to be running', async () => (await job(intent.cartprepJobId)).status === 'RUNNING');
    await stack.kill('cartprep'); // SIGKILL mid-job: no graceful stop, the lease is left behind
    expect((await call('GET', r, adult.token)).body.status).toBe('CART_PREP');
    await stack.start('cartprep');

    const ready = await until('CART_READY after the restart', async () => {
      const got = await call('GET', r, adult.token);
      return got.body.status === 'CART_READY' && got.body;
    });
    expect(ready.cart).toMatchObject({ subtotal: 120, currency: 'EUR', merchantDomain: 'shop.example.com' });
    // The second attempt did the work; it ran longer than the lease without being taken away.
    expect(await job(intent.cartprepJobId)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });

    const done = await call('POST', `${r}/confirm-checkout`, adult.token, {
      confirmationToken: intent.confirmationToken,
    });
    expect(done.body.status).toBe('COMPLETED');
    // Exactly one cart-ready took effect (audited once), however often it was delivered.
    const cartReady = await until('the audit entries in the ledger', async () => {
      const logs = await call('GET', `${h}/audit-logs?action=CONFIRM_CHECKOUT`, parent.token);
      if (logs.body.length === 0) return false;
      return (await call('GET', `${h}/audit-logs?action=CART_READY`, parent.token)).body as Array<{
        detail: Record<string, unknown>;
      }>;
    });
    expect(cartReady.map((e) => e.detail.outcome)).toEqual(['ALLOWED']);
  }, 60_000);
});
