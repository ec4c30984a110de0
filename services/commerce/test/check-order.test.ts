// The order of checks (decisions, Conventions): role (403), then the offer's existence (404),
// then the body (413, 400 syntax, 422 schema): a missing offer is 404 whatever the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceApp, headers } from './helpers.ts';

let app: Awaited<ReturnType<typeof commerceApp>>;
beforeAll(async () => {
  app = await commerceApp();
});
afterAll(() => app.close());

const O = '/api/v1/households/h_1/offers';
const BODIES = {
  'bad JSON': '{"a":',
  'an oversized body': JSON.stringify({ status: 'ARCHIVED', pad: 'x'.repeat(1_100_000) }),
  'a schema-invalid body': JSON.stringify({ bogus: [1] }),
} as const;
const send = (method: 'PATCH' | 'DELETE', url: string, body: string, as = headers) =>
  app.inject({ method, url, headers: { ...as, 'content-type': 'application/json' }, payload: body });

describe('a missing offer is 404 before the body is read', () => {
  for (const [what, body] of Object.entries(BODIES))
    it(`PATCH .../offers/off_missing/status with ${what}`, async () => {
      const res = await send('PATCH', `${O}/off_missing/status`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Offer not found' });
    });

  for (const what of ['bad JSON', 'an oversized body'] as const)
    it(`DELETE .../offers/off_missing with ${what}`, async () => {
      const res = await send('DELETE', `${O}/off_missing`, BODIES[what]);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Offer not found' });
    });

  it('an id that cannot exist is 404 too, and a CHILD still hears 403 first', async () => {
    const res = await send('PATCH', `${O}/${'x'.repeat(129)}/status`, '{"a":');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Offer not found' });
    const child = { ...headers, 'x-user-id': 'usr_kid', 'x-member-role': 'CHILD' };
    const refused = await send('PATCH', `${O}/off_missing/status`, '{"a":', child);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD may not create, change or delete offers',
    });
  });
});
