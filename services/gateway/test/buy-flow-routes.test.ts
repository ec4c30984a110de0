import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway, sampleCart } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

describe('purchase requests: create and read', () => {
  it('creates a PENDING_APPROVAL request, lists it on the household, and reads it back with a budget', async () => {
    const res = await t.post('/requests', t.adult, t.item);
    expect(res.statusCode).toBe(201);
    const pr = res.json();
    expect(pr).toMatchObject({
      status: 'PENDING_APPROVAL',
      requesterId: t.adult.userId,
      merchantDomain: 'shop.example.com',
      quantity: 1,
      price: 80,
    });
    expect(pr.requestId).toMatch(/^pr_/);
    const household = (await t.app.inject({ method: 'GET', url: t.h, headers: t.child.auth })).json();
    expect(household.purchaseRequests).toEqual([pr.requestId]);
    const one = await t.app.inject({
      method: 'GET',
      url: `${t.h}/requests/${pr.requestId}`,
      headers: t.adult.auth,
    });
    expect(one.json().budget).toEqual({
      currency: 'EUR',
      perRequestLimit: null,
      monthlyLimit: null,
      spentThisMonth: 0,
      remaining: null,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: `${t.h}/requests?status=PENDING_APPROVAL`,
      headers: t.guardian.auth,
    });
    expect(list.json().map((r: { requestId: string }) => r.requestId)).toEqual([pr.requestId]);
  });

  it('refuses a CHILD (403) and audits the refusal', async () => {
    const res = await t.post('/requests', t.child, t.item);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot create purchase requests',
    });
    const refused = (await t.gates()).find((g) => g.action === 'CREATE_PURCHASE_REQUEST');
    expect(refused).toMatchObject({
      actorId: t.child.userId,
      severity: 'WARNING',
      detail: { outcome: 'REFUSED', status: 403 },
    });
  });

  it('refuses a CHILD approving with a broken body with 403 before reading it, and audits the refusal', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${t.h}/requests/pr_unknown/approve`,
      headers: { ...t.child.auth, 'content-type': 'application/json' },
      payload: '{"not json',
    });
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only a PARENT_GUARDIAN can approve purchase requests',
    });
    const refused = (await t.gates()).find((g) => g.action === 'APPROVE_PURCHASE_REQUEST');
    expect(refused).toMatchObject({
      actorId: t.child.userId,
      targetId: 'pr_unknown',
      detail: { outcome: 'REFUSED', status: 403 },
    });
  });

  it.each([
    ['zero price', { price: 0 }, 'price'],
    ['negative price', { price: -5 }, 'price'],
    ['price as text', { price: 'abc' }, 'price'],
    ['absurd price', { price: 1_000_001 }, 'price'],
    ['unknown currency', { currency: 'XYZ' }, 'currency'],
    ['lower-case currency', { currency: 'eur' }, 'currency'],
    ['missing title', { title: undefined }, 'title'],
  ])('rejects %s with 422 and creates nothing', async (_name, change, field) => {
    const res = await t.post('/requests', t.adult, { ...t.item, ...change });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('VALIDATION_ERROR');
    expect(res.json().details.map((d: { loc: string[] }) => d.loc)).toContainEqual(['body', field]);
    expect(
      (await t.app.inject({ method: 'GET', url: `${t.h}/requests`, headers: t.adult.auth })).json(),
    ).toEqual([]);
  });

  it.each([
    ['ftp://shop.example.com/x', 'URL must use http or https'],
    ['https://127.0.0.1/x', 'URL must use a domain name, not an IP address'],
    ['https://[::1]/x', 'URL must use a domain name, not an IP address'],
    [
      'https://shop.example.com:8443/x',
      'URL must use the default port of its scheme (443 for https, 80 for http)',
    ],
    ['http://localhost:8080/x', 'URL must have a valid public domain name'],
    ['https://shop.localhost/x', 'URL must have a valid public domain name'],
    ['https://user:pw@shop.example.com/x', 'URL must not contain credentials'],
    ['not a url', 'URL is not valid'],
  ])('refuses the url %s with 400 POLICY_VIOLATION and creates nothing', async (url, message) => {
    const res = await t.post('/requests', t.adult, { ...t.item, url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'POLICY_VIOLATION', message });
    const household = (await t.app.inject({ method: 'GET', url: t.h, headers: t.adult.auth })).json();
    expect(household.purchaseRequests).toEqual([]);
  });

  it("hides another household's request (404) and refuses non-members (403)", async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const other = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: t.outsider.auth,
        payload: { name: 'Other' },
      })
    ).json();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${other.householdId}/requests/${pr.requestId}`,
      headers: t.outsider.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Purchase request not found' });
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/v1/households/${other.householdId}/requests/${pr.requestId}/approve`,
      headers: t.outsider.auth,
      payload: {},
    });
    expect(approve.statusCode).toBe(404);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `${t.h}/requests/${pr.requestId}`,
      headers: t.outsider.auth,
    });
    expect(foreign.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
  });
});

describe('purchase requests: approval and the state table', () => {
  it('lets only a PARENT_GUARDIAN approve, once', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    expect((await t.post(`${r}/approve`, t.adult)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only a PARENT_GUARDIAN can approve purchase requests',
    });
    const ok = await t.post(`${r}/approve`, t.guardian);
    expect(ok.json()).toMatchObject({ status: 'APPROVED', approvedBy: t.guardian.userId });
    expect((await t.post(`${r}/approve`, t.guardian)).json()).toEqual({
      error: 'CONFLICT',
      message: 'Purchase request is already approved (APPROVED)',
    });
  });

  it('answers 409 for every transition the table does not allow', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    expect((await t.post(`${r}/purchase-intents`, t.adult)).json()).toEqual({
      error: 'CONFLICT',
      message:
        'Purchase request must be APPROVED to create a purchase intent (current state: PENDING_APPROVAL)',
    });
    expect(
      (await t.post(`${r}/cart-ready`, t.internal(), { jobId: 'cpj_whatever1', cart: sampleCart() })).json(),
    ).toEqual({
      error: 'CONFLICT',
      message: 'Purchase request is not in cart preparation (current state: PENDING_APPROVAL)',
    });
    expect((await t.post(`${r}/reject`, t.guardian)).json().status).toBe('REJECTED');
    expect((await t.post(`${r}/approve`, t.guardian)).json()).toEqual({
      error: 'CONFLICT',
      message: 'Purchase request is already finalized (REJECTED)',
    });
    expect((await t.post(`${r}/cancel`, t.adult)).json()).toEqual({
      error: 'CONFLICT',
      message: 'Purchase request is already finalized (REJECTED)',
    });
  });

  it('lets the requester cancel, not another adult', async () => {
    const pr = (await t.post('/requests', t.guardian, t.item)).json();
    expect((await t.post(`/requests/${pr.requestId}/cancel`, t.adult)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the requester or a PARENT_GUARDIAN can cancel a purchase request',
    });
    expect((await t.post(`/requests/${pr.requestId}/cancel`, t.guardian)).json().status).toBe('CANCELLED');
  });

  it('lets exactly one of concurrent approvals win', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.post(`/requests/${pr.requestId}/approve`, t.guardian)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
  });
});

describe('purchase intents, callbacks and checkout', () => {
  it('runs the flow to COMPLETED and audits every gate', async () => {
    const { created, r, intent } = await t.toCartReady();
    expect(intent).toMatchObject({ requestId: created.requestId, actorId: t.adult.userId });
    expect(intent.intentId).toMatch(/^pi_/);
    expect(intent.cartprepJobId).toMatch(/^cpj_/);
    expect(Buffer.from(intent.confirmationToken, 'base64url')).toHaveLength(32);
    expect(t.cartprep.jobs).toEqual([
      expect.objectContaining({
        jobId: intent.cartprepJobId,
        requestId: created.requestId,
        url: t.item.url,
        size: 'M',
        quantity: 1,
        token: 'dev-internal-token-cartprep',
      }),
    ]);
    // The token is stored only as its hash.
    const stored = await t.store.collection('checkout_tokens').query({});
    expect(JSON.stringify(stored.items)).not.toContain(intent.confirmationToken);

    const done = await t.post(`${r}/confirm-checkout`, t.adult, {
      confirmationToken: intent.confirmationToken,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: 'COMPLETED', cart: sampleCart() });

    const actions = (await t.gates()).map((g) => `${g.action}:${g.detail.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'CREATE_PURCHASE_REQUEST:ALLOWED',
        'APPROVE_PURCHASE_REQUEST:ALLOWED',
        'CREATE_PURCHASE_INTENT:ALLOWED',
        'CART_READY:ALLOWED',
        'CONFIRM_CHECKOUT:ALLOWED',
      ]),
    );
  });

  it('checks confirm-checkout in the documented order', async () => {
    const { r, intent } = await t.toCartReady();
    const confirm = (who: Harness['adult'], body: object) => t.post(`${r}/confirm-checkout`, who, body);
    expect((await confirm(t.child, {})).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot confirm a checkout',
    });
    expect((await confirm(t.adult, {})).json()).toEqual({
      error: 'CONFLICT',
      message: 'Confirmation token is missing',
    });
    expect((await confirm(t.adult, { confirmationToken: 'x'.repeat(43) })).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Confirmation token is invalid',
    });
    expect((await confirm(t.guardian, { confirmationToken: intent.confirmationToken })).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Confirmation token was issued to another member',
    });
    expect((await confirm(t.adult, { confirmationToken: intent.confirmationToken })).statusCode).toBe(200);
    expect((await confirm(t.adult, { confirmationToken: intent.confirmationToken })).json()).toEqual({
      error: 'CONFLICT',
      message: 'Confirmation token has already been used',
    });
    const refusals = (await t.gates())
      .filter((g) => g.action === 'CONFIRM_CHECKOUT' && g.detail.outcome === 'REFUSED')
      .map((g) => g.detail.reason);
    expect(refusals).toEqual(
      expect.arrayContaining([
        'A CHILD member cannot confirm a checkout',
        'Confirmation token is invalid',
        'Confirmation token was issued to another member',
        'Confirmation token has already been used',
      ]),
    );
  });

  it('refuses a token before the cart is ready (409) and an expired one (403)', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    const intent = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    expect(
      (
        await t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: intent.confirmationToken })
      ).json(),
    ).toEqual({
      error: 'CONFLICT',
      message: 'Purchase request is not CART_READY (current state: CART_PREP)',
    });
    const tokens = t.store.collection<{ expiresAt: string }>('checkout_tokens');
    const [doc] = (await tokens.query({})).items as Array<{ tokenHash: string; expiresAt: string }>;
    await tokens.put(doc!.tokenHash, { ...doc!, expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(
      (
        await t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: intent.confirmationToken })
      ).json(),
    ).toEqual({
      error: 'FORBIDDEN',
      message: 'Confirmation token has expired',
    });
  });

  it('guards the internal callbacks with the buy-flow token and answers repeats idempotently', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    const intent = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    const body = { jobId: intent.cartprepJobId, cart: sampleCart() };
    for (const who of [t.internal('wrong'), t.adult])
      expect((await t.post(`${r}/cart-ready`, who, body)).json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Missing or invalid internal buy-flow token',
      });
    expect(
      (await t.post(`${r}/cart-ready`, t.internal(), { ...body, jobId: 'cpj_otherjob1' })).json(),
    ).toEqual({
      error: 'CONFLICT',
      message: `Callback is for job cpj_otherjob1, but the request is waiting for job ${intent.cartprepJobId}`,
    });
    const first = await t.post(`${r}/cart-ready`, t.internal(), body);
    const again = await t.post(`${r}/cart-ready`, t.internal(), body);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    // Another cart for the same job is not taken, and the worker is told so.
    const other = {
      ...body,
      cart: { ...body.cart, subtotal: 1, checkoutUrl: 'https://shop.example.com/other' },
    };
    const changed = await t.post(`${r}/cart-ready`, t.internal(), other);
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error).toBe('CONFLICT');
    const kept = await t.app.inject({ method: 'GET', url: `${t.h}${r}`, headers: t.adult.auth });
    expect(kept.json().cart).toEqual(first.json().cart);
    expect(
      (await t.gates()).filter((g) => g.action === 'CART_READY' && g.detail.outcome === 'ALLOWED'),
    ).toHaveLength(1);
  });

  it('a buyer whose intent answer never arrived is told where a token comes from, and can still pay', async () => {
    const created = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${created.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    // The intent was made, but its answer (and token) lost on the way: the buyer asks again.
    const lost = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    const again = await t.post(`${r}/purchase-intents`, t.adult);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain(`/requests/${created.requestId}/confirmation-token`);
    // Someone else starting a purchase of it still gets the plain state conflict.
    const other = await t.post(`${r}/purchase-intents`, t.guardian);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).not.toContain('confirmation-token');

    await t.post(`${r}/cart-ready`, t.internal(), { jobId: lost.cartprepJobId, cart: sampleCart() });
    const fresh = await t.post(`${r}/confirmation-token`, t.adult);
    expect(fresh.statusCode).toBe(201);
    const done = await t.post(`${r}/confirm-checkout`, t.adult, {
      confirmationToken: fresh.json().confirmationToken,
    });
    expect(done.json().status).toBe('COMPLETED');
  });

  it('sends a failed cart back to APPROVED with lastFailure, and a new intent supersedes the old token', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    const first = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    const failed = { jobId: first.cartprepJobId, errorCode: 'SIZE_UNAVAILABLE', message: 'out of stock' };
    const res = await t.post(`${r}/failed`, t.internal(), failed);
    expect(res.json()).toMatchObject({
      status: 'APPROVED',
      lastFailure: { jobId: first.cartprepJobId, errorCode: 'SIZE_UNAVAILABLE', message: 'out of stock' },
    });
    expect((await t.post(`${r}/failed`, t.internal(), failed)).json()).toEqual(res.json());
    const second = (await t.post(`${r}/purchase-intents`, t.adult)).json();
    await t.post(`${r}/cart-ready`, t.internal(), { jobId: second.cartprepJobId, cart: sampleCart() });
    expect(
      (await t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: first.confirmationToken })).json(),
    ).toEqual({
      error: 'FORBIDDEN',
      message: 'Confirmation token is invalid',
    });
    expect(
      (await t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: second.confirmationToken }))
        .statusCode,
    ).toBe(200);
  });

  it('keeps the request APPROVED when cart-prep is down (502), so the intent can be retried', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    t.cartprep.state.failWith = 500;
    const res = await t.post(`${r}/purchase-intents`, t.adult);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('UPSTREAM_ERROR');
    const after = (await t.app.inject({ method: 'GET', url: `${t.h}${r}`, headers: t.adult.auth })).json();
    expect(after).toMatchObject({ status: 'APPROVED', lastFailure: { errorCode: 'INTERNAL_ERROR' } });
    t.cartprep.state.failWith = 0;
    expect((await t.post(`${r}/purchase-intents`, t.adult)).statusCode).toBe(201);
  });

  it('refuses a CHILD starting a purchase (403, audited)', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
    expect((await t.post(`/requests/${pr.requestId}/purchase-intents`, t.child)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot start a purchase',
    });
    expect(
      (await t.gates()).some(
        (g) =>
          g.action === 'CREATE_PURCHASE_INTENT' &&
          g.actorId === t.child.userId &&
          g.detail.outcome === 'REFUSED',
      ),
    ).toBe(true);
  });
});
