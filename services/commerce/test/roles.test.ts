import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceApp, headers, offer } from './helpers.ts';

let app: Awaited<ReturnType<typeof commerceApp>>;
beforeAll(async () => {
  app = await commerceApp();
});
afterAll(() => app.close());

const O = '/api/v1/households/h_1/offers';
const as = (role: string) => ({
  ...headers,
  'x-user-id': `usr_${role.toLowerCase()}`,
  'x-member-role': role,
});
const REFUSED = { error: 'FORBIDDEN', message: 'A CHILD may not create, change or delete offers' };

describe('offers and roles', () => {
  it('refuses a CHILD every write (403, before the body is read) and leaves the offer as it was', async () => {
    const created = await app.inject({ method: 'POST', url: O, headers: as('ADULT'), payload: offer() });
    expect(created.statusCode).toBe(201);
    const { offerId } = created.json();
    const child = as('CHILD');
    const attempts = [
      { method: 'POST', url: O, payload: offer() },
      { method: 'POST', url: `${O}/bulk`, payload: { offers: [offer()] } },
      { method: 'POST', url: O, payload: { nonsense: true } },
      { method: 'PATCH', url: `${O}/${offerId}/status`, payload: { status: 'ARCHIVED' } },
      { method: 'DELETE', url: `${O}/${offerId}` },
    ] as const;
    for (const attempt of attempts) {
      const res = await app.inject({ ...attempt, headers: child });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(REFUSED);
    }
    const read = await app.inject({ method: 'GET', url: `${O}/${offerId}`, headers: child });
    expect(read.statusCode).toBe(200);
    expect(read.json().status).toBe('ACTIVE');
  });
});
