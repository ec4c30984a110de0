import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

const putPolicy = (body: object) =>
  t.app.inject({
    method: 'PUT',
    url: `${t.h}/members/${t.adult.userId}/spending-policy`,
    headers: t.guardian.auth,
    payload: body,
  });

describe("amounts in the currency's own decimals", () => {
  it.each([
    ['a third decimal of euros', 19.999, 'EUR', 'EUR amounts have at most 2 decimals'],
    ['half a yen', 1200.5, 'JPY', 'JPY amounts have no decimals'],
    ['a fourth decimal of dinars', 1.2345, 'BHD', 'BHD amounts have at most 3 decimals'],
  ])(
    'refuses a purchase request priced with %s (422) and creates nothing',
    async (_name, price, currency, message) => {
      const res = await t.post('/requests', t.adult, { ...t.item, price, currency });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(res.json().details).toContainEqual(
        expect.objectContaining({ loc: ['body', 'price'], msg: message }),
      );
      const household = (await t.app.inject({ method: 'GET', url: t.h, headers: t.adult.auth })).json();
      expect(household.purchaseRequests).toEqual([]);
    },
  );

  it("stores an app's binary noise as the amount it meant", async () => {
    const res = await t.post('/requests', t.adult, { ...t.item, price: 0.1 + 0.2, currency: 'EUR' });
    expect(res.statusCode).toBe(201);
    expect(res.json().price).toBe(0.3);
  });

  it("stores a spending limit's binary noise as the amount meant", async () => {
    const res = await putPolicy({ perRequestLimit: 0.1 + 0.2, monthlyLimit: null, currency: 'EUR' });
    expect(res.statusCode).toBe(200);
    expect(res.json().perRequestLimit).toBe(0.3);
  });

  it('refuses a spending limit finer than its currency (422 on that field)', async () => {
    const res = await putPolicy({ perRequestLimit: 50, monthlyLimit: 100.005, currency: 'EUR' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toContainEqual(expect.objectContaining({ loc: ['body', 'monthlyLimit'] }));
  });

  it('approves a three-decimal total that is exactly the per-request limit (it was rounded to cents and refused)', async () => {
    expect(
      (await putPolicy({ perRequestLimit: 3.705, monthlyLimit: null, currency: 'BHD' })).statusCode,
    ).toBe(200);
    const created = await t.post('/requests', t.adult, {
      ...t.item,
      price: 1.235,
      quantity: 3,
      currency: 'BHD',
    });
    expect(created.statusCode).toBe(201);
    const approved = await t.post(`/requests/${created.json().requestId}/approve`, t.guardian);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('APPROVED');
  });

  it('names a yen total without decimals when it is over the limit', async () => {
    expect((await putPolicy({ perRequestLimit: 1000, monthlyLimit: null, currency: 'JPY' })).statusCode).toBe(
      200,
    );
    const created = await t.post('/requests', t.adult, { ...t.item, price: 1200, currency: 'JPY' });
    const refused = await t.post(`/requests/${created.json().requestId}/approve`, t.guardian);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "Request total 1200 JPY exceeds the requester's per-request limit of 1000 JPY",
    );
  });
});

describe('decimals come from ISO 4217, not from how a runtime displays a currency', () => {
  it.each([
    [1499.5, 'HUF'],
    [12500.75, 'PKR'],
    [15000.25, 'IDR'],
    [2.125, 'IQD'],
  ])('accepts %s %s', async (price, currency) => {
    const res = await t.post('/requests', t.adult, { ...t.item, price, currency });
    expect(res.statusCode).toBe(201);
    expect(res.json().price).toBe(price);
  });
});
