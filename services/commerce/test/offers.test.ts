import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceApp, headers, offer } from './helpers.ts';

let app: Awaited<ReturnType<typeof commerceApp>>;
beforeAll(async () => {
  app = await commerceApp();
});
afterAll(() => app.close());

const post = (url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });

describe('offers', () => {
  it('creates an offer with derived domain and defaults, and reads it back', async () => {
    const res = await post(
      '/api/v1/households/h_1/offers',
      offer({ url: 'https://Shop.Acme.com/p/1', imageUrl: undefined }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      householdId: 'h_1',
      merchantDomain: 'shop.acme.com',
      status: 'ACTIVE',
      imageUrl: null,
      currency: 'EUR',
    });
    expect(body.offerId).toMatch(/^off_/);
    expect(body).not.toHaveProperty('searchTokens');
    const got = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_1/offers/${body.offerId}`,
      headers,
    });
    expect(got.json()).toEqual(body);
  });

  it.each([
    ['ftp://shop.acme.com/x', 'URL must use http or https'],
    ['http://127.0.0.1/x', 'URL must use a domain name, not an IP address'],
    ['http://0x7f.1/x', 'URL must use a domain name, not an IP address'],
    ['http://[::1]/x', 'URL must use a domain name, not an IP address'],
    ['http://localhost:3000/x', 'URL must have a valid public domain name'],
    ['http://shop.localhost/x', 'URL must have a valid public domain name'],
    ['https://user:pw@shop.acme.com/x', 'URL must not contain credentials'],
    [
      'https://shop.acme.com:8443/x',
      'URL must use the default port of its scheme (443 for https, 80 for http)',
    ],
    ['https://intranet/x', 'URL must have a valid public domain name'],
    ['not a url', 'URL is not valid'],
  ])('refuses %s with 400 POLICY_VIOLATION', async (url, message) => {
    const res = await post('/api/v1/households/h_1/offers', offer({ url }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'POLICY_VIOLATION', message });
  });

  it('answers 422 VALIDATION_ERROR for a malformed body', async () => {
    const res = await post('/api/v1/households/h_1/offers', { url: 'https://a.com' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('VALIDATION_ERROR');
    expect(res.json().details.map((d: { loc: unknown[] }) => d.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'title'],
        ['body', 'price'],
        ['body', 'currency'],
      ]),
    );
  });

  it('refuses hidden characters in an offer’s title, brand or colours (422): text a model or a family would read', async () => {
    for (const bad of [
      { title: 'Coat\u{e0069}\u{e0067}\u{e006e}' },
      { brand: 'Acme\u202e' },
      { colors: ['navy\u0000'] },
    ]) {
      const res = await post('/api/v1/households/h_1/offers', offer(bad));
      expect(res.statusCode).toBe(422);
      expect(res.json().details[0].msg).toBe(
        'Must not contain control characters, invisible characters or text-direction marks',
      );
    }
  });

  it('bulk-creates atomically: one bad URL refuses the whole batch', async () => {
    const bad = await post('/api/v1/households/h_bulk/offers/bulk', {
      offers: [offer(), offer({ url: 'http://10.0.0.1/x' }), offer()],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'offers[1]: URL must use a domain name, not an IP address',
    });
    const none = await app.inject({ method: 'GET', url: '/api/v1/households/h_bulk/offers', headers });
    expect(none.json().items).toEqual([]);
    const ok = await post('/api/v1/households/h_bulk/offers/bulk', {
      offers: [offer(), offer({ price: 10 })],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().items).toHaveLength(2);
    const tooMany = await post('/api/v1/households/h_bulk/offers/bulk', {
      offers: Array.from({ length: 501 }, () => offer()),
    });
    expect(tooMany.statusCode).toBe(422);
  });

  it("changes status, deletes, and hides other households' offers as 404", async () => {
    const created = (await post('/api/v1/households/h_1/offers', offer())).json();
    const url = `/api/v1/households/h_1/offers/${created.offerId}`;
    const patched = await app.inject({
      method: 'PATCH',
      url: `${url}/status`,
      headers,
      payload: { status: 'INACTIVE' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().status).toBe('INACTIVE');
    const bad = await app.inject({
      method: 'PATCH',
      url: `${url}/status`,
      headers,
      payload: { status: 'SOLD' },
    });
    expect(bad.statusCode).toBe(422);
    const other = `/api/v1/households/h_2/offers/${created.offerId}`;
    const notFound = { error: 'NOT_FOUND', message: 'Offer not found' };
    for (const [method, u, payload] of [
      ['GET', other, undefined],
      ['PATCH', `${other}/status`, { status: 'ARCHIVED' }],
      ['DELETE', other, undefined],
    ] as const) {
      const res = await app.inject({ method, url: u, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect((await app.inject({ method: 'DELETE', url, headers })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url, headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url, headers })).statusCode).toBe(404);
  });

  it('requires the internal token', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/households/h_1/offers' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
  });
});

describe('domain allowlist', () => {
  it('allows listed domains and their subdomains only', async () => {
    const strict = await commerceApp({
      COMMERCE_ENFORCE_DOMAIN_ALLOWLIST: 'true',
      COMMERCE_ALLOWED_DOMAINS: 'acme.com, zalando.de',
    });
    const create = (url: string) =>
      strict.inject({
        method: 'POST',
        url: '/api/v1/households/h_1/offers',
        headers,
        payload: offer({ url }),
      });
    expect((await create('https://acme.com/a')).statusCode).toBe(201);
    expect((await create('https://www.zalando.de/a')).statusCode).toBe(201);
    const refused = await create('https://notacme.com/a');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'Domain notacme.com is not on the allowlist',
    });
    await strict.close();
  });

  it('refuses to boot with an enforced but empty allowlist', async () => {
    await expect(commerceApp({ COMMERCE_ENFORCE_DOMAIN_ALLOWLIST: 'true' })).rejects.toThrow(
      /COMMERCE_ALLOWED_DOMAINS/,
    );
  });
});

describe("offer prices in the currency's own decimals", () => {
  it("stores an offer price's binary noise as the amount meant", async () => {
    const res = await post('/api/v1/households/h_prec/offers', offer({ price: 0.1 + 0.2, currency: 'EUR' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().price).toBe(0.3);
    await app.inject({
      method: 'DELETE',
      url: `/api/v1/households/h_prec/offers/${res.json().offerId}`,
      headers,
    });
  });

  it('refuses a price finer than its currency (422), and a bulk create with one such offer creates none', async () => {
    const one = await post('/api/v1/households/h_prec/offers', offer({ price: 9.999, currency: 'eur' }));
    expect(one.statusCode).toBe(422);
    expect(one.json().details).toContainEqual(
      expect.objectContaining({ loc: ['body', 'price'], msg: 'EUR amounts have at most 2 decimals' }),
    );
    const bulk = await post('/api/v1/households/h_prec/offers/bulk', {
      offers: [offer({ price: 1200, currency: 'JPY' }), offer({ price: 1200.5, currency: 'JPY' })],
    });
    expect(bulk.statusCode).toBe(422);
    const listed = await app.inject({ method: 'GET', url: '/api/v1/households/h_prec/offers', headers });
    expect(listed.json().items).toEqual([]);
  });

  it('refuses a currency nobody pays in (ZZZ, XXX): the offer could never be bought', async () => {
    for (const currency of ['ZZZ', 'xxx']) {
      const res = await post('/api/v1/households/h_prec/offers', offer({ currency }));
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toContainEqual(
        expect.objectContaining({ loc: ['body', 'currency'], msg: 'is not a known ISO 4217 currency code' }),
      );
    }
    expect((await post('/api/v1/households/h_prec/offers', offer({ currency: 'chf' }))).statusCode).toBe(201);
  });
});

describe('a household holds at most COMMERCE_MAX_OFFERS_PER_HOUSEHOLD offers', () => {
  it('refuses an offer or a whole batch past the bound (409, nothing created), and a deletion frees a place', async () => {
    const capped = await commerceApp({ COMMERCE_MAX_OFFERS_PER_HOUSEHOLD: '3' });
    try {
      const url = '/api/v1/households/h_cap/offers';
      const create = (payload: unknown, path = url) =>
        capped.inject({ method: 'POST', url: path, headers, payload: payload as object });
      expect((await create({ offers: [offer(), offer()] }, `${url}/bulk`)).statusCode).toBe(201);
      const batch = await create({ offers: [offer(), offer()] }, `${url}/bulk`);
      expect(batch.statusCode).toBe(409);
      expect(batch.json().error).toBe('CONFLICT');
      const one = await create(offer());
      expect(one.statusCode).toBe(201);
      expect((await create(offer())).statusCode).toBe(409);
      const listed = await capped.inject({ method: 'GET', url, headers });
      expect(listed.json().items).toHaveLength(3);
      const removed = await capped.inject({ method: 'DELETE', url: `${url}/${one.json().offerId}`, headers });
      expect(removed.statusCode).toBe(204);
      expect((await create(offer())).statusCode).toBe(201);
      expect((await create(offer(), '/api/v1/households/h_other/offers')).statusCode).toBe(201);
    } finally {
      await capped.close();
    }
  });
});
