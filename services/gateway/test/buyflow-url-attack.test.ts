import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway, sampleCart } from './buyflow-harness.ts';

/**
 * Links a guardian or the buyer opens must name the host the approval and the cart check judged.
 * WHATWG reads `https://shop.example.com\@evil.example/` as shop.example.com, but other parsers
 * (Android's Uri, many server libraries) read the part before `@` as a user name and go to
 * evil.example: so the gateway keeps URLs in their canonical spelling, and refuses credentials.
 */
let t: Awaited<ReturnType<typeof buildBuyflowGateway>>;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

async function cartPrepRequest() {
  const created = (await t.post('/requests', t.adult, t.item)).json();
  const r = `/requests/${created.requestId}`;
  expect((await t.post(`${r}/approve`, t.guardian)).statusCode).toBe(200);
  const intent = (await t.post(`${r}/purchase-intents`, t.adult, {})).json();
  return { r, jobId: intent.cartprepJobId as string };
}

describe('merchant and checkout URLs an attacker spells ambiguously', () => {
  it('stores a purchase request URL in its canonical spelling, so every parser sees the approved host', async () => {
    const res = await t.post('/requests', t.adult, {
      ...t.item,
      url: ' https://Shop.Example.com\\@evil.example/p/1',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      url: 'https://shop.example.com/@evil.example/p/1',
      merchantDomain: 'shop.example.com',
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `${t.h}/requests/${res.json().requestId}`,
      headers: t.guardian.auth,
    });
    expect(read.json().url).toBe('https://shop.example.com/@evil.example/p/1');
  });

  it("keeps a prepared cart's checkout URL in its canonical spelling", async () => {
    const { r, jobId } = await cartPrepRequest();
    const cart = { ...sampleCart(), checkoutUrl: 'https://shop.example.com\\@evil.example/checkout' };
    const res = await t.post(`${r}/cart-ready`, t.internal(), { jobId, cart });
    expect(res.json()).toMatchObject({
      status: 'CART_READY',
      cart: { checkoutUrl: 'https://shop.example.com/@evil.example/checkout' },
    });
  });

  it.each([
    [
      'a user name in front of the merchant host',
      'https://evil.example@shop.example.com/checkout',
      'credentials',
    ],
    ['another port on the merchant host', 'https://shop.example.com:8443/checkout', 'default https port'],
  ])('refuses a checkout URL with %s', async (_case, checkoutUrl, reason) => {
    const { r, jobId } = await cartPrepRequest();
    const cart = { ...sampleCart(), checkoutUrl };
    const res = await t.post(`${r}/cart-ready`, t.internal(), { jobId, cart });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'APPROVED',
      cart: null,
      lastFailure: { jobId, errorCode: 'SAFETY_VIOLATION' },
    });
    expect(res.json().lastFailure.message).toContain(reason);
  });
});
