// A parent's decision and its audit entry stand or fall together: when the audit outbox cannot
// take the entry right after the decision landed (a store failure, or a crash in between), the
// decision still answers 200 and the entry stays owed on the request until the recovery sweep
// records it, exactly once. Before, the caller got 503 for a decision that had landed, and the
// entry was lost: a retried approval is 409.
import { StoreUnavailableError } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recoverOwedAudits } from '../src/flows/owed-audit.ts';
import { recoverDispatches } from '../src/flows/start-purchase-intent.ts';
import { buildBuyflowGateway, sampleCart } from './buyflow-harness.ts';
import { storeWith } from './store-with.ts';

/** A store whose audit outbox refuses new entries while `failing` is set. */
function storeWithFailingAuditOutbox() {
  const failing = { on: false };
  const store = storeWith('outbox_audit', (collection) => ({
    create: async (id, doc) => {
      if (failing.on)
        throw new StoreUnavailableError('STORE_TIMEOUT', 'audit outbox unavailable', {
          outcomeUnknown: true,
        });
      return collection.create(id, doc);
    },
  }));
  return { store, failing };
}

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
let failing: { on: boolean };
beforeEach(async () => {
  const made = storeWithFailingAuditOutbox();
  failing = made.failing;
  t = await buildBuyflowGateway({ store: made.store });
});
afterEach(async () => {
  vi.useRealTimers();
  await t.close();
});

const entriesFor = async (requestId: string, action: string) =>
  (await t.gates()).filter((e) => e.targetId === requestId && e.action === action);

/** The sweep runs on requests left alone for 10 s: let that time pass. */
async function sweepLater() {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11_000 });
  return recoverOwedAudits(t.app.ctx);
}

describe('a decision whose audit entry could not be queued', () => {
  it.each([
    ['approve', 'APPROVE_PURCHASE_REQUEST', 'APPROVED', () => t.guardian],
    ['reject', 'REJECT_PURCHASE_REQUEST', 'REJECTED', () => t.guardian],
    ['cancel', 'CANCEL_PURCHASE_REQUEST', 'CANCELLED', () => t.adult],
  ] as const)('%s: 200, and the sweep records its entry once', async (event, action, status, who) => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    failing.on = true;
    const decided = await t.post(`/requests/${pr.requestId}/${event}`, who(), { reason: 'no' });
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({ requestId: pr.requestId, status });
    expect(decided.json()).not.toHaveProperty('auditOwed');
    expect(await entriesFor(pr.requestId, action)).toHaveLength(0);

    failing.on = false;
    expect(await sweepLater()).toBe(1);
    const [entry, ...more] = await entriesFor(pr.requestId, action);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      category: 'PURCHASE_GATE',
      actorId: who().userId,
      detail: expect.objectContaining({ outcome: 'ALLOWED' }),
    });
    // Paid: the next sweeps find nothing owed, and nothing is recorded twice.
    expect(await recoverOwedAudits(t.app.ctx)).toBe(0);
    expect(await entriesFor(pr.requestId, action)).toHaveLength(1);
  });

  it('a request the sweep finds still unpayable stays owed until the outbox takes it', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    failing.on = true;
    expect((await t.post(`/requests/${pr.requestId}/approve`, t.guardian)).statusCode).toBe(200);
    expect(await sweepLater()).toBe(1);
    expect(await entriesFor(pr.requestId, 'APPROVE_PURCHASE_REQUEST')).toHaveLength(0);
    failing.on = false;
    expect(await recoverOwedAudits(t.app.ctx)).toBe(1);
    expect(await entriesFor(pr.requestId, 'APPROVE_PURCHASE_REQUEST')).toHaveLength(1);
  });
});

describe('a decision whose audit entry was queued at once', () => {
  it('leaves nothing owed on the request', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    expect((await t.post(`/requests/${pr.requestId}/approve`, t.guardian)).statusCode).toBe(200);
    expect(await entriesFor(pr.requestId, 'APPROVE_PURCHASE_REQUEST')).toHaveLength(1);
    const stored = await t.app.ctx.buyflow.requests.get(pr.householdId, pr.requestId);
    expect(stored).toMatchObject({ auditOwed: [], auditPending: false });
    expect(await sweepLater()).toBe(0);
  });
});

describe('the other gates that change a request', () => {
  it('creating a request: 201, and its CREATE entry recorded by the sweep', async () => {
    failing.on = true;
    const created = await t.post('/requests', t.adult, t.item);
    expect(created.statusCode).toBe(201);
    const { requestId } = created.json();
    expect(await entriesFor(requestId, 'CREATE_PURCHASE_REQUEST')).toHaveLength(0);
    failing.on = false;
    expect(await sweepLater()).toBe(1);
    expect(await entriesFor(requestId, 'CREATE_PURCHASE_REQUEST')).toHaveLength(1);
  });

  it('starting the purchase: 201 with its token, and its entry recorded by the sweep', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
    failing.on = true;
    const intent = await t.post(`/requests/${pr.requestId}/purchase-intents`, t.adult);
    expect(intent.statusCode).toBe(201);
    expect(intent.json().confirmationToken).toEqual(expect.any(String));
    failing.on = false;
    expect(await sweepLater()).toBe(1);
    const [entry, ...more] = await entriesFor(pr.requestId, 'CREATE_PURCHASE_INTENT');
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      actorId: t.adult.userId,
      detail: expect.objectContaining({ outcome: 'ALLOWED', intentId: intent.json().intentId }),
    });
  });

  it("cart-prep's cart and the parent's confirmation: each answered, each entry recorded once", async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    const intent = (await t.post(`${r}/purchase-intents`, t.adult)).json();

    failing.on = true;
    const ready = await t.post(`${r}/cart-ready`, t.internal(), {
      jobId: intent.cartprepJobId,
      cart: sampleCart(),
    });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('CART_READY');
    const done = await t.post(`${r}/confirm-checkout`, t.adult, {
      confirmationToken: intent.confirmationToken,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().status).toBe('COMPLETED');
    // cart-prep redelivering its callback changes nothing and owes nothing more.
    expect(
      (await t.post(`${r}/cart-ready`, t.internal(), { jobId: intent.cartprepJobId, cart: sampleCart() }))
        .statusCode,
    ).toBe(200);

    failing.on = false;
    expect(await sweepLater()).toBe(1);
    expect(await entriesFor(pr.requestId, 'CART_READY')).toHaveLength(1);
    expect(await entriesFor(pr.requestId, 'CONFIRM_CHECKOUT')).toHaveLength(1);
  });

  it('a cart that does not match the approval: both its CRITICAL entries are owed and recorded', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    const intent = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    failing.on = true;
    const refused = await t.post(`${r}/cart-ready`, t.internal(), {
      jobId: intent.cartprepJobId,
      cart: sampleCart(500),
    });
    expect(refused.json().status).toBe('APPROVED');
    failing.on = false;
    expect(await sweepLater()).toBe(1);
    const [gate] = await entriesFor(pr.requestId, 'CART_READY');
    expect(gate).toMatchObject({
      severity: 'CRITICAL',
      detail: expect.objectContaining({ outcome: 'REFUSED' }),
    });
    const outbox = await t.store
      .collection<{ payload: { event: { action: string; category: string; targetId: string } } }>(
        'outbox_audit',
      )
      .query({ limit: 500 });
    const mismatches = outbox.items
      .map((i) => i.payload.event)
      .filter((e) => e.action === 'CART_MISMATCH' && e.targetId === pr.requestId);
    expect(mismatches).toEqual([expect.objectContaining({ category: 'SAFETY_VIOLATION' })]);
  });
});

describe('an intent whose dispatch outlives the sweep grace', () => {
  it('is recorded once, though the route and the dispatch sweep both owe its entry', async () => {
    const slow = await buildBuyflowGateway({ cartprepDelayMs: 1500 });
    try {
      const pr = (await slow.post('/requests', slow.adult, slow.item)).json();
      const r = `/requests/${pr.requestId}`;
      await slow.post(`${r}/approve`, slow.guardian);
      const route = slow.post(`${r}/purchase-intents`, slow.adult);
      // Step 2 has landed and the route is waiting on cart-prep: the sweep's moment.
      for (let i = 0; i < 100; i++) {
        const stored = await slow.app.ctx.buyflow.requests.get(pr.householdId, pr.requestId);
        if (stored?.dispatchPending) break;
        await new Promise((res) => setTimeout(res, 20));
      }
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11_000 });
      const sweep = recoverDispatches(slow.app.ctx);
      expect((await route).statusCode).toBe(201);
      await sweep;
      await recoverOwedAudits(slow.app.ctx);
      const intents = (await slow.gates()).filter(
        (g) => g.action === 'CREATE_PURCHASE_INTENT' && g.targetId === pr.requestId,
      );
      expect(intents).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});
