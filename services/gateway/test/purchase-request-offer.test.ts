// A purchase request names the offer it came from: only an offer of the same household, so a
// request never points at another family's offer (or at one that does not exist).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, withHousehold } from './gateway-harness.ts';

let commerce: FastifyInstance;
let gateway: GatewayApp;
const offers = new Map<string, string>(); // offerId → householdId

beforeAll(async () => {
  commerce = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  commerce.get('/api/v1/households/:id/offers/:offerId', async (req, reply) => {
    const { id, offerId } = req.params as { id: string; offerId: string };
    if (offers.get(offerId) !== id)
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Offer not found' });
    return { offerId, householdId: id, title: 'Coat' };
  });
  // As commerce: the household's offer list at the collection's path.
  commerce.get('/api/v1/households/:id/offers', async () => ({ items: [], nextCursor: null }));
  await commerce.listen({ port: 0, host: '127.0.0.1' });
  gateway = await buildGateway({
    COMMERCE_BASE_URL: `http://127.0.0.1:${(commerce.server.address() as { port: number }).port}`,
  });
});
afterAll(async () => {
  await gateway.close();
  await commerce.close();
});

const request = (token: string, id: string, offerId?: string) =>
  gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${id}/requests`,
    headers: bearer(token),
    payload: { title: 'Coat', url: 'https://shop.example.com/coat', price: 40, currency: 'EUR', offerId },
  });

describe('a purchase request’s offerId', () => {
  it('is accepted for the household’s own offer, refused (404, nothing saved) for another’s or none', async () => {
    const { token, householdId } = await withHousehold(gateway, 'offer-mine@x.test');
    const mine = { token, id: householdId };
    const theirs = { id: (await withHousehold(gateway, 'offer-theirs@x.test')).householdId };
    offers.set('off_mine0001', mine.id);
    offers.set('off_theirs01', theirs.id);

    const ok = await request(mine.token, mine.id, 'off_mine0001');
    expect(ok.statusCode).toBe(201);
    expect(ok.json().offerId).toBe('off_mine0001');

    // `.` would name commerce's offer list, not an offer: none, as for any id that cannot be one.
    for (const offerId of ['off_theirs01', 'off_madeup01', '.', '..', 'off/../x']) {
      const refused = await request(mine.token, mine.id, offerId);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: 'NOT_FOUND', message: 'Offer not found in this household' });
    }
    const listed = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${mine.id}/requests`,
      headers: bearer(mine.token),
    });
    expect(listed.json().map((r: { offerId: string }) => r.offerId)).toEqual(['off_mine0001']);
    // Without an offerId commerce is not asked.
    expect((await request(mine.token, mine.id)).statusCode).toBe(201);
  });
});
