import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeAll(async () => {
  t = await buildBuyflowGateway();
});
afterAll(() => t.close());

const GATEWAY_TOKEN = 'dev-internal-token-gateway';
const agent = (userId: string, token = GATEWAY_TOKEN) => ({ 'x-internal-token': token, 'x-user-id': userId });
const internalPath = (requestId: string) =>
  `/api/v1/internal/households/${t.household.householdId}/requests/${requestId}`;

async function approvedRequest() {
  const created = (await t.post('/requests', t.adult, t.item)).json();
  expect((await t.post(`/requests/${created.requestId}/approve`, t.guardian)).statusCode).toBe(200);
  return created.requestId as string;
}

describe('the stylist agent in the buy flow', () => {
  const raise = (userId: string, key: string, body: unknown = t.item, token = GATEWAY_TOKEN) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/internal/households/${t.household.householdId}/requests`,
      headers: { ...agent(userId, token), 'idempotency-key': key },
      payload: body as object,
    });

  it("raises a request for the acting member under the app route's rules, once per idempotency key", async () => {
    expect((await raise(t.adult.userId, 'k-token', t.item, 'x')).statusCode).toBe(403);
    const first = await raise(t.adult.userId, 'stylist:m_1:off_1:');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      status: 'PENDING_APPROVAL',
      requesterId: t.adult.userId,
      title: 'Rain jacket',
    });
    const again = await raise(t.adult.userId, 'stylist:m_1:off_1:');
    expect(again.json().requestId).toBe(first.json().requestId);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${t.household.householdId}/requests`,
      headers: t.guardian.auth,
    });
    expect(
      listed.json().filter((r: { requestId: string }) => r.requestId === first.json().requestId),
    ).toHaveLength(1);
    const bad = await raise(t.adult.userId, 'k-bad', { ...t.item, url: 'http://127.0.0.1/x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('POLICY_VIOLATION');
  });

  it('refuses to raise a request for a CHILD (403, audited) and creates nothing', async () => {
    const child = await raise(t.child.userId, 'stylist:m_2:off_1:');
    expect(child.statusCode).toBe(403);
    expect(child.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot create purchase requests',
    });
    const refused = (await t.gates()).find(
      (g) => g.action === 'CREATE_PURCHASE_REQUEST' && g.actorId === t.child.userId,
    );
    expect(refused).toMatchObject({ actorId: t.child.userId, detail: { outcome: 'REFUSED', status: 403 } });
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${t.household.householdId}/requests`,
      headers: t.guardian.auth,
    });
    expect(mine.json().filter((r: { requesterId: string }) => r.requesterId === t.child.userId)).toEqual([]);
  });

  it('reads a request only with the gateway token and a member as the acting user', async () => {
    const created = (await t.post('/requests', t.adult, t.item)).json();
    const noToken = await t.app.inject({
      method: 'GET',
      url: internalPath(created.requestId),
      headers: agent(t.adult.userId, 'x'),
    });
    expect(noToken.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
    const outsider = await t.app.inject({
      method: 'GET',
      url: internalPath(created.requestId),
      headers: agent(t.outsider.userId),
    });
    expect(outsider.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    const ok = await t.app.inject({
      method: 'GET',
      url: internalPath(created.requestId),
      headers: agent(t.adult.userId),
    });
    expect(ok.json()).toMatchObject({ requestId: created.requestId, status: 'PENDING_APPROVAL' });
  });

  it('refuses to start cart preparation before approval and for a child', async () => {
    const pending = (await t.post('/requests', t.adult, t.item)).json();
    const early = await t.app.inject({
      method: 'POST',
      url: `${internalPath(pending.requestId)}/purchase-intents`,
      headers: agent(t.adult.userId),
    });
    expect(early.statusCode).toBe(409);
    const requestId = await approvedRequest();
    const child = await t.app.inject({
      method: 'POST',
      url: `${internalPath(requestId)}/purchase-intents`,
      headers: agent(t.child.userId),
    });
    expect(child.statusCode).toBe(403);
  });

  it('starts cart preparation without exposing a token; only the acting member can get one and check out', async () => {
    const requestId = await approvedRequest();
    const started = await t.app.inject({
      method: 'POST',
      url: `${internalPath(requestId)}/purchase-intents`,
      headers: agent(t.adult.userId),
    });
    expect(started.statusCode).toBe(201);
    const intent = started.json();
    expect(intent).toMatchObject({
      requestId,
      actorId: t.adult.userId,
      cartprepJobId: expect.stringMatching(/^cpj_/),
    });
    expect(intent).not.toHaveProperty('confirmationToken');
    expect(t.cartprep.jobs.at(-1)).toMatchObject({ jobId: intent.cartprepJobId, requestId });

    const byOther = await t.post(`/requests/${requestId}/confirmation-token`, t.guardian);
    expect(byOther.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the member who started the purchase can confirm it',
    });
    const byChild = await t.post(`/requests/${requestId}/confirmation-token`, t.child);
    expect(byChild.statusCode).toBe(403);
    const issued = await t.post(`/requests/${requestId}/confirmation-token`, t.adult);
    expect(issued.statusCode).toBe(201);
    const { confirmationToken } = issued.json();

    const ready = await t.app.inject({
      method: 'POST',
      url: `${t.h}/requests/${requestId}/cart-ready`,
      headers: t.internal().auth,
      payload: {
        jobId: intent.cartprepJobId,
        cart: {
          items: [{ title: 'Rain jacket', size: 'M', quantity: 1, unitPrice: 80 }],
          subtotal: 80,
          currency: 'EUR',
          merchantDomain: 'shop.example.com',
          checkoutUrl: 'https://shop.example.com/checkout?cart=1',
        },
      },
    });
    expect(ready.json().status).toBe('CART_READY');
    const done = await t.post(`/requests/${requestId}/confirm-checkout`, t.adult, { confirmationToken });
    expect(done.statusCode).toBe(200);
    expect(done.json().status).toBe('COMPLETED');
    const again = await t.post(`/requests/${requestId}/confirmation-token`, t.adult);
    expect(again.statusCode).toBe(409);
    const actions = (await t.gates()).map((g) => `${g.action}:${g.detail.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining(['ISSUE_CONFIRMATION_TOKEN:ALLOWED', 'ISSUE_CONFIRMATION_TOKEN:REFUSED']),
    );
  });
});
