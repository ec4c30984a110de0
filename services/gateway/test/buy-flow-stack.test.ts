import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackClient } from './buyflow-harness.ts';

// Real processes: gateway (sqlite, so its state survives a restart) + cartprep (simulated
// executor, calling back by itself) + artifacts-audit (the ledger behind audit-logs).
let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'cartprep', 'artifacts-audit'],
    durable: true,
    perService: {
      gateway: { AUDIT_RETRY_MAX_SECONDS: '1' },
      cartprep: {
        CARTPREP_POLL_MS: '50',
        CARTPREP_CALLBACK_RETRY_MAX_SECONDS: '1',
        CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '2',
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const { call, login, until } = stackClient(() => stack);

let parent: { token: string; userId: string };
let adult: { token: string; userId: string };
let child: { token: string; userId: string };
let h: string;
let householdId: string;

describe('the buy flow across real services', () => {
  it('runs PARENT_GUARDIAN / ADULT / CHILD to COMPLETED with cart-prep calling back by itself', async () => {
    parent = await login('stack-parent');
    adult = await login('stack-adult');
    child = await login('stack-child');
    householdId = (await call('POST', '/api/v1/households', parent.token, { name: 'Stack home' })).body
      .householdId;
    h = `/api/v1/households/${householdId}`;
    await call('POST', `${h}/members`, parent.token, { memberId: adult.userId, role: 'ADULT' });
    await call('POST', `${h}/members`, parent.token, { memberId: child.userId, role: 'CHILD' });

    const item = {
      title: 'Wool coat',
      url: 'https://shop.example.com/p/wool-coat',
      price: 120,
      currency: 'EUR',
      size: 'L',
    };
    expect((await call('POST', `${h}/requests`, child.token, item)).status).toBe(403);
    const pr = (await call('POST', `${h}/requests`, adult.token, item)).body;
    const r = `${h}/requests/${pr.requestId}`;
    expect((await call('POST', `${r}/approve`, adult.token, {})).status).toBe(403);
    expect((await call('POST', `${r}/approve`, parent.token, {})).body.status).toBe('APPROVED');
    expect((await call('POST', `${r}/purchase-intents`, child.token, {})).status).toBe(403);
    const intent = (await call('POST', `${r}/purchase-intents`, adult.token, {})).body;
    expect(intent.cartprepJobId).toMatch(/^cpj_/);

    const ready = await until('CART_READY', async () => {
      const got = await call('GET', r, adult.token);
      return got.body.status === 'CART_READY' && got.body;
    });
    expect(ready.cart).toMatchObject({ subtotal: 120, currency: 'EUR', merchantDomain: 'shop.example.com' });
    const job = await call('GET', `${h}/cartprep/jobs/${intent.cartprepJobId}`, child.token);
    expect(job.body).toMatchObject({ status: 'SUCCEEDED', attempts: 1, requestId: pr.requestId });

    const confirm = (who: { token: string }, confirmationToken?: string) =>
      call(
        'POST',
        `${r}/confirm-checkout`,
        who.token,
        confirmationToken === undefined ? {} : { confirmationToken },
      );
    expect((await confirm(child, intent.confirmationToken)).status).toBe(403);
    expect((await confirm(adult, 'not-the-token')).body).toEqual({
      error: 'FORBIDDEN',
      message: 'Confirmation token is invalid',
    });
    expect((await confirm(adult, intent.confirmationToken)).body.status).toBe('COMPLETED');
    expect((await confirm(adult, intent.confirmationToken)).body).toEqual({
      error: 'CONFLICT',
      message: 'Confirmation token has already been used',
    });

    // The ledger tells the whole story, refusals included, and its hash chain verifies.
    const story = await until('the audit story', async () => {
      const logs = await call('GET', `${h}/audit-logs?category=PURCHASE_GATE&limit=100`, parent.token);
      const entries =
        (logs.body as Array<{
          action: string;
          targetId: string | null;
          detail: { outcome: string; reason?: string };
        }>) ?? [];
      return entries.length >= 11 && entries;
    });
    const lines = story.map((e) => `${e.action}:${e.detail.outcome}`).reverse();
    expect(lines).toEqual([
      'CREATE_PURCHASE_REQUEST:REFUSED',
      'CREATE_PURCHASE_REQUEST:ALLOWED',
      'APPROVE_PURCHASE_REQUEST:REFUSED',
      'APPROVE_PURCHASE_REQUEST:ALLOWED',
      'CREATE_PURCHASE_INTENT:REFUSED',
      'CREATE_PURCHASE_INTENT:ALLOWED',
      'CART_READY:ALLOWED',
      'CONFIRM_CHECKOUT:REFUSED',
      'CONFIRM_CHECKOUT:REFUSED',
      'CONFIRM_CHECKOUT:ALLOWED',
      'CONFIRM_CHECKOUT:REFUSED',
    ]);
    const verify = await fetch(
      `${stack.url('artifacts-audit')}/api/v1/households/${householdId}/audit/verify`,
      {
        headers: { 'x-internal-token': 'dev-internal-token-artifacts-audit' },
      },
    );
    expect(await verify.json()).toMatchObject({ valid: true });
  }, 60_000);

  it('delivers a callback that finished while the gateway was down, once it is back', async () => {
    const item = {
      title: 'Boots',
      url: 'https://shop.example.com/p/boots?simulateDelayMs=1500',
      price: 60,
      currency: 'EUR',
    };
    const pr = (await call('POST', `${h}/requests`, adult.token, item)).body;
    const r = `${h}/requests/${pr.requestId}`;
    await call('POST', `${r}/approve`, parent.token, {});
    const intent = (await call('POST', `${r}/purchase-intents`, adult.token, {})).body;
    expect(intent.cartprepJobId).toMatch(/^cpj_/);
    await stack.stop('gateway');
    // The job finishes while the gateway is down; its callback waits in cart-prep's outbox.
    const cartprep = (path: string) =>
      fetch(`${stack.url('cartprep')}${path}`, {
        headers: { 'x-internal-token': 'dev-internal-token-cartprep' },
      }).then((res) => res.json() as Promise<{ status: string }>);
    await until(
      'the job to finish',
      async () => (await cartprep(`/api/v1/cartprep/jobs/${intent.cartprepJobId}`)).status === 'SUCCEEDED',
    );
    await new Promise((res) => setTimeout(res, 300));
    await stack.start('gateway');
    const ready = await until('CART_READY after restart', async () => {
      const got = await call('GET', r, adult.token);
      return got.body.status === 'CART_READY' && got.body;
    });
    expect(ready.cartprepJobId).toBe(intent.cartprepJobId);
    expect(
      (
        await call('POST', `${r}/confirm-checkout`, adult.token, {
          confirmationToken: intent.confirmationToken,
        })
      ).body.status,
    ).toBe('COMPLETED');
  }, 60_000);

  // Last: its slow jobs hold cart-prep's two workers until the stack closes.
  it("answers a household past cart-prep's active-job bound 429 with Retry-After; the request stays APPROVED", async () => {
    const owner = await login('stack-busy-parent');
    const home = `/api/v1/households/${
      (await call('POST', '/api/v1/households', owner.token, { name: 'Busy home' })).body.householdId
    }`;
    const approvedRequest = async (n: number) => {
      const pr = (
        await call('POST', `${home}/requests`, owner.token, {
          title: `Scarf ${n}`,
          // Simulated in test: each job takes 30 s, so both stay active.
          url: `https://shop.example.com/p/scarf-${n}?simulateDelayMs=30000`,
          price: 20,
          currency: 'EUR',
        })
      ).body;
      await call('POST', `${home}/requests/${pr.requestId}/approve`, owner.token, {});
      return `${home}/requests/${pr.requestId}`;
    };
    for (const n of [1, 2])
      expect(
        (await call('POST', `${await approvedRequest(n)}/purchase-intents`, owner.token, {})).status,
      ).toBe(201);
    const third = await approvedRequest(3);
    const refused = await call('POST', `${third}/purchase-intents`, owner.token, {});
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body).toEqual({
      error: 'RATE_LIMITED',
      message: 'This household already has 2 carts being prepared; try again when one is done',
    });
    const after = (await call('GET', third, owner.token)).body;
    expect(after.status).toBe('APPROVED');
    expect(after.lastFailure.message).toContain('This household already has 2 carts being prepared');
  }, 60_000);
});
