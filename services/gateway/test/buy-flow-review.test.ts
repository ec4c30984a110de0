import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway, sampleCart } from './buyflow-harness.ts';

// Adversarial review of the buy flow: what a wrong cart, a stale job, another household's path,
// a demoted member or a reused key must not be able to do.
type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

/** A request APPROVED by the guardian and in CART_PREP for the adult: 80 EUR at shop.example.com. */
async function toCartPrep(key?: string) {
  const pr = (await t.post('/requests', t.adult, t.item)).json();
  const r = `/requests/${pr.requestId}`;
  expect((await t.post(`${r}/approve`, t.guardian)).statusCode).toBe(200);
  const intent = (
    await t.post(`${r}/purchase-intents`, t.adult, {}, key ? { 'idempotency-key': key } : {})
  ).json();
  expect(intent.cartprepJobId).toMatch(/^cpj_/);
  return { pr, r, intent };
}

const read = async (r: string) =>
  (await t.app.inject({ method: 'GET', url: `${t.h}${r}`, headers: t.adult.auth })).json();

describe('cart-ready with a cart that does not match the approval', () => {
  it.each([
    [
      'costs more than approved',
      { subtotal: 120, items: [{ title: 'Rain jacket', size: 'M', quantity: 1, unitPrice: 120 }] },
      'Cart subtotal 120.00 EUR exceeds the approved total 80.00 EUR',
    ],
    ['is in another currency', { currency: 'USD' }, 'Cart is in USD, but the approved request is in EUR'],
    [
      'has lines dearer than its subtotal says',
      { subtotal: 20, items: [{ title: 'Something else', size: 'M', quantity: 50, unitPrice: 20 }] },
      'Cart lines add up to 1000.00 EUR, more than the approved total 80.00 EUR',
    ],
    [
      'holds another quantity',
      { subtotal: 80, items: [{ title: 'Rain jacket', size: 'M', quantity: 4, unitPrice: 20 }] },
      'Cart does not hold what was approved: the cart holds 4 of the item, the request is for 1',
    ],
    [
      'holds another size',
      { items: [{ title: 'Rain jacket', size: 'XXL', quantity: 1, unitPrice: 80 }] },
      'Cart does not hold what was approved: the cart holds no line in size M (it reads XXL)',
    ],
    [
      'comes from another merchant',
      { merchantDomain: 'evil-shop.com', checkoutUrl: 'https://evil-shop.com/checkout' },
      'Cart is from evil-shop.com, but the approved request is from shop.example.com',
    ],
    [
      'checks out off the merchant',
      { checkoutUrl: 'https://shop.example.com.evil.io/checkout' },
      'Checkout URL must be https on shop.example.com (got https://shop.example.com.evil.io)',
    ],
    [
      'checks out over plain http',
      { checkoutUrl: 'http://shop.example.com/checkout' },
      'Checkout URL must be https on shop.example.com (got http://shop.example.com)',
    ],
  ])('is refused when the cart %s: back to APPROVED, no checkout possible', async (_what, over, reason) => {
    const { r, intent } = await toCartPrep();
    const body = { jobId: intent.cartprepJobId, cart: { ...sampleCart(), ...over } };
    const res = await t.post(`${r}/cart-ready`, t.internal(), body);
    expect(res.statusCode).toBe(200);
    const message = `Cart refused: ${reason}. The request is back to APPROVED; start a new purchase to retry.`;
    expect(res.json()).toMatchObject({
      status: 'APPROVED',
      cart: null,
      lastFailure: { jobId: intent.cartprepJobId, errorCode: 'SAFETY_VIOLATION', message },
    });
    // The same callback again (a lost reply): same answer, no second transition or audit entry.
    expect((await t.post(`${r}/cart-ready`, t.internal(), body)).json()).toEqual(res.json());
    const refused = (await t.gates()).filter((g) => g.action === 'CART_READY');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ severity: 'CRITICAL', detail: { outcome: 'REFUSED', reason } });
    const violations = (
      await t.store
        .collection<{ payload: { event: Record<string, unknown> } }>('outbox_audit')
        .query({ limit: 500 })
    ).items
      .map((i) => i.payload.event)
      .filter((e) => e.category === 'SAFETY_VIOLATION');
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({
      action: 'CART_MISMATCH',
      severity: 'CRITICAL',
      targetType: 'PURCHASE_REQUEST',
      detail: { jobId: intent.cartprepJobId, reason },
    });
    // Nobody can confirm the refused cart.
    const confirm = await t.post(`${r}/confirm-checkout`, t.adult, {
      confirmationToken: intent.confirmationToken,
    });
    expect(confirm.json()).toEqual({
      error: 'CONFLICT',
      message: 'Purchase request is not CART_READY (current state: APPROVED)',
    });
  });

  it('accepts a cheaper cart (and a checkout on a subdomain of the merchant), and a retry after a refusal', async () => {
    const { r, intent } = await toCartPrep();
    const dear = {
      ...sampleCart(95),
      items: [{ title: 'Rain jacket', size: 'M', quantity: 1, unitPrice: 95 }],
    };
    await t.post(`${r}/cart-ready`, t.internal(), { jobId: intent.cartprepJobId, cart: dear });
    const retry = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    const cheaper = { ...sampleCart(79.99), checkoutUrl: 'https://checkout.shop.example.com/c/1' };
    const ready = await t.post(`${r}/cart-ready`, t.internal(), {
      jobId: retry.cartprepJobId,
      cart: cheaper,
    });
    expect(ready.json()).toMatchObject({ status: 'CART_READY', cart: cheaper });
    const done = await t.post(`${r}/confirm-checkout`, t.adult, {
      confirmationToken: retry.confirmationToken,
    });
    expect(done.json().status).toBe('COMPLETED');
    // The refused attempt and the retry reserved the budget once.
    expect((await read(r)).budget).toMatchObject({ spentThisMonth: 80 });
  });

  it('compares against price × quantity', async () => {
    const pr = (await t.post('/requests', t.adult, { ...t.item, price: 30, quantity: 3 })).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    const intent = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    const cart = {
      ...sampleCart(90),
      items: [{ title: 'Rain jacket', size: 'M', quantity: 3, unitPrice: 30 }],
    };
    expect(
      (await t.post(`${r}/cart-ready`, t.internal(), { jobId: intent.cartprepJobId, cart })).json().status,
    ).toBe('CART_READY');
  });
});

describe('callbacks that must not move a request', () => {
  it('refuses the stale job of a superseded intent, for cart-ready and failed alike', async () => {
    const { r, intent: first } = await toCartPrep();
    await t.post(`${r}/failed`, t.internal(), { jobId: first.cartprepJobId, errorCode: 'TIMEOUT' });
    const second = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    const stale = { jobId: first.cartprepJobId, cart: sampleCart() };
    const waiting = `Callback is for job ${first.cartprepJobId}, but the request is waiting for job ${second.cartprepJobId}`;
    expect((await t.post(`${r}/cart-ready`, t.internal(), stale)).json()).toEqual({
      error: 'CONFLICT',
      message: waiting,
    });
    expect(
      (
        await t.post(`${r}/failed`, t.internal(), { jobId: first.cartprepJobId, errorCode: 'TIMEOUT' })
      ).json(),
    ).toEqual({ error: 'CONFLICT', message: waiting });
    expect(await read(r)).toMatchObject({ status: 'CART_PREP', cartprepJobId: second.cartprepJobId });
    // Once the current job's cart is ready, the stale job still cannot replace it.
    await t.post(`${r}/cart-ready`, t.internal(), { jobId: second.cartprepJobId, cart: sampleCart(70) });
    expect((await t.post(`${r}/cart-ready`, t.internal(), stale)).statusCode).toBe(409);
    expect((await read(r)).cart.subtotal).toBe(70);
  });

  it("answers 404 for a request under another household's path and leaves it alone", async () => {
    const { pr, r, intent } = await toCartPrep();
    const other = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: t.guardian.auth,
        payload: { name: 'Other home' },
      })
    ).json();
    const foreign = `/api/v1/households/${other.householdId}/requests/${pr.requestId}`;
    for (const [path, body] of [
      ['cart-ready', { jobId: intent.cartprepJobId, cart: sampleCart() }],
      ['failed', { jobId: intent.cartprepJobId, errorCode: 'TIMEOUT' }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${foreign}/${path}`,
        headers: t.internal().auth,
        payload: body,
      });
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Purchase request not found' });
    }
    // The guardian is a member of both households: the other path still does not reach it.
    for (const path of ['confirm-checkout', 'confirmation-token', 'cancel'])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `${foreign}/${path}`,
            headers: t.guardian.auth,
            payload: {},
          })
        ).statusCode,
      ).toBe(404);
    expect(await read(r)).toMatchObject({ status: 'CART_PREP', cart: null, lastFailure: null });
  });
});

describe('roles and keys at every gate', () => {
  it('does not replay a stored purchase intent (with its token) to a member demoted to CHILD', async () => {
    const { pr, r, intent } = await toCartPrep('key-1');
    await t.post(`${r}/failed`, t.internal(), { jobId: intent.cartprepJobId, errorCode: 'TIMEOUT' });
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `${t.h}/members/${t.adult.userId}`,
      headers: t.guardian.auth,
      payload: { role: 'CHILD' },
    });
    expect(demote.json().role).toBe('CHILD');
    const replay = await t.post(`${r}/purchase-intents`, t.adult, {}, { 'idempotency-key': 'key-1' });
    expect(replay.json()).toEqual({ error: 'FORBIDDEN', message: 'A CHILD member cannot start a purchase' });
    expect(JSON.stringify(replay.json())).not.toContain(intent.confirmationToken);
    const confirm = await t.post(
      `${r}/confirm-checkout`,
      t.adult,
      { confirmationToken: intent.confirmationToken },
      { 'idempotency-key': 'key-2' },
    );
    expect(confirm.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot confirm a checkout',
    });
    const create = await t.post('/requests', t.adult, t.item, { 'idempotency-key': 'key-3' });
    expect(create.statusCode).toBe(403);
    expect(pr.requestId).toMatch(/^pr_/);
  });

  it('scopes a key to its path: the same key on two requests starts two intents, each with its own token', async () => {
    const a = await toCartPrep('same-key');
    const b = await toCartPrep('same-key');
    expect(b.intent.requestId).toBe(b.pr.requestId);
    expect(b.intent.confirmationToken).not.toBe(a.intent.confirmationToken);
    // And a replay on the first path still answers the first intent.
    const again = await t.post(`${a.r}/purchase-intents`, t.adult, {}, { 'idempotency-key': 'same-key' });
    expect(again.json()).toEqual(a.intent);
  });

  it('never lets a CHILD or a non-member through the confirmation-token gate', async () => {
    const { r } = await toCartPrep();
    expect((await t.post(`${r}/confirmation-token`, t.child)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot confirm a checkout',
    });
    expect((await t.post(`${r}/confirmation-token`, t.outsider)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'User is not a household member',
    });
    expect((await t.post(`${r}/confirmation-token`, t.guardian)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the member who started the purchase can confirm it',
    });
  });
});

describe('spending ledger across failures', () => {
  it('keeps one reservation through a failed cart-prep and releases it once on cancel', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `${t.h}/members/${t.adult.userId}/spending-policy`,
      headers: t.guardian.auth,
      payload: { perRequestLimit: null, monthlyLimit: 100, currency: 'EUR' },
    });
    const { r, intent } = await toCartPrep();
    await t.post(`${r}/failed`, t.internal(), { jobId: intent.cartprepJobId, errorCode: 'TIMEOUT' });
    expect((await read(r)).budget).toMatchObject({ spentThisMonth: 80, remaining: 20 });
    const second = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    await t.post(`${r}/failed`, t.internal(), { jobId: second.cartprepJobId, errorCode: 'TIMEOUT' });
    expect((await read(r)).budget).toMatchObject({ spentThisMonth: 80, remaining: 20 });
    expect((await t.post(`${r}/cancel`, t.adult)).json().status).toBe('CANCELLED');
    expect((await t.post(`${r}/cancel`, t.adult)).statusCode).toBe(409);
    expect((await read(r)).budget).toMatchObject({ spentThisMonth: 0, remaining: 100 });
  });
});

describe('Idempotency-Key scope', () => {
  it('treats another spelling of the same path as the same operation (no second request)', async () => {
    const key = { 'idempotency-key': 'create-once' };
    const first = await t.post('/requests', t.adult, t.item, key);
    expect(first.statusCode).toBe(201);
    // The household id with its first character percent-encoded: the same household, the same route.
    const id = t.household.householdId as string;
    const respelled = `/api/v1/households/%${id.charCodeAt(0).toString(16)}${id.slice(1)}/requests`;
    const retry = await t.app.inject({
      method: 'POST',
      url: respelled,
      headers: { ...t.adult.auth, ...key },
      payload: t.item,
    });
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    const list = await t.app.inject({ method: 'GET', url: `${t.h}/requests`, headers: t.adult.auth });
    expect(list.json()).toHaveLength(1);
  });
});
