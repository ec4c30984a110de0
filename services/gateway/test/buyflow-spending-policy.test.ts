import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

let t: Awaited<ReturnType<typeof buildBuyflowGateway>>;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

const policyUrl = (memberId: string) => `/members/${memberId}/spending-policy`;
const put = (body: object, who = t.guardian, memberId = t.adult.userId) =>
  t.app.inject({ method: 'PUT', url: `${t.h}${policyUrl(memberId)}`, headers: who.auth, payload: body });

describe('household spending policy', () => {
  it('is set by a PARENT_GUARDIAN only and read by them or the member', async () => {
    expect((await put({ perRequestLimit: 100, monthlyLimit: 150, currency: 'EUR' }, t.adult)).json()).toEqual(
      {
        error: 'FORBIDDEN',
        message: 'Only a PARENT_GUARDIAN can set spending policies',
      },
    );
    const ok = await put({ perRequestLimit: 100, monthlyLimit: 150, currency: 'EUR' });
    expect(ok.json()).toMatchObject({
      memberId: t.adult.userId,
      perRequestLimit: 100,
      monthlyLimit: 150,
      currency: 'EUR',
      updatedBy: t.guardian.userId,
    });
    const mine = await t.app.inject({
      method: 'GET',
      url: `${t.h}${policyUrl(t.adult.userId)}`,
      headers: t.adult.auth,
    });
    expect(mine.json()).toEqual(ok.json());
    const other = await t.app.inject({
      method: 'GET',
      url: `${t.h}${policyUrl(t.adult.userId)}`,
      headers: t.child.auth,
    });
    expect(other.statusCode).toBe(403);
    expect(
      (
        await put({ perRequestLimit: 1, monthlyLimit: null, currency: 'EUR' }, t.guardian, 'usr_nobody')
      ).json(),
    ).toEqual({
      error: 'NOT_FOUND',
      message: 'Member not found',
    });
    expect((await put({ perRequestLimit: -1, monthlyLimit: null, currency: 'EUR' })).statusCode).toBe(422);
  });

  it('refuses approvals above the per-request cap or the monthly budget, and shows what remains', async () => {
    await put({ perRequestLimit: 100, monthlyLimit: 150, currency: 'EUR' });
    const create = async (price: number, currency = 'EUR') =>
      (await t.post('/requests', t.adult, { ...t.item, price, currency })).json();
    const approve = (pr: { requestId: string }) => t.post(`/requests/${pr.requestId}/approve`, t.guardian);

    const big = await create(120);
    expect((await approve(big)).json()).toEqual({
      error: 'CONFLICT',
      message: "Request total 120.00 EUR exceeds the requester's per-request limit of 100.00 EUR",
    });
    const dollars = await create(10, 'USD');
    expect((await approve(dollars)).json()).toEqual({
      error: 'CONFLICT',
      message: "The requester's spending policy is in EUR; a request in USD cannot be approved against it",
    });
    const first = await create(90);
    expect((await approve(first)).statusCode).toBe(200);
    const second = await create(70);
    expect((await approve(second)).json()).toEqual({
      error: 'CONFLICT',
      message:
        "Request total 70.00 EUR exceeds the requester's remaining monthly budget of 60.00 EUR (limit 150.00 EUR, spent 90.00 EUR)",
    });
    const view = (
      await t.app.inject({ method: 'GET', url: `${t.h}/requests/${second.requestId}`, headers: t.adult.auth })
    ).json();
    expect(view.budget).toEqual({
      currency: 'EUR',
      perRequestLimit: 100,
      monthlyLimit: 150,
      spentThisMonth: 90,
      remaining: 60,
    });

    // Cancelling the approved one gives its amount back.
    await t.post(`/requests/${first.requestId}/cancel`, t.adult);
    expect((await approve(second)).statusCode).toBe(200);
    expect(
      (await t.gates()).filter(
        (g) => g.action === 'APPROVE_PURCHASE_REQUEST' && g.detail.outcome === 'REFUSED',
      ),
    ).toHaveLength(3);
  });

  it('lets only as many concurrent approvals through as the monthly budget allows', async () => {
    await put({ perRequestLimit: null, monthlyLimit: 100, currency: 'EUR' });
    const requests = [];
    for (let i = 0; i < 6; i++)
      requests.push((await t.post('/requests', t.adult, { ...t.item, price: 40 })).json());
    const results = await Promise.all(
      requests.map((pr) => t.post(`/requests/${pr.requestId}/approve`, t.guardian)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
  });

  it("shows a request's budget to its requester and guardians only; an ADULT or CHILD gets null on another's", async () => {
    await put({ perRequestLimit: 100, monthlyLimit: 150, currency: 'EUR' });
    const created = await t.post('/requests', t.adult, t.item);
    expect(created.statusCode).toBe(201);
    const { requestId } = created.json();
    const read = async (who: typeof t.adult) =>
      (await t.app.inject({ method: 'GET', url: `${t.h}/requests/${requestId}`, headers: who.auth })).json();
    expect((await read(t.adult)).budget).toMatchObject({ monthlyLimit: 150, remaining: 150 });
    expect((await read(t.guardian)).budget).toMatchObject({ monthlyLimit: 150, remaining: 150 });
    const byChild = await read(t.child);
    expect(byChild.requestId).toBe(requestId);
    expect(byChild.budget).toBeNull();
    const guardians = (await t.post('/requests', t.guardian, t.item)).json();
    const byAdult = await t.app.inject({
      method: 'GET',
      url: `${t.h}/requests/${guardians.requestId}`,
      headers: t.adult.auth,
    });
    expect(byAdult.json().budget).toBeNull();
  });
});
