// The parent who approves a purchase reads its title and note: text that reads otherwise than it
// is (a direction mark turning "Coat 1999" into a cheaper-looking price, control characters,
// invisible ones) is refused, line breaks in a note are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, withHousehold } from './gateway-harness.ts';

let gateway: GatewayApp;
let token = '';
let id = '';

beforeAll(async () => {
  gateway = await buildGateway({});
  ({ token, householdId: id } = await withHousehold(gateway, 'text@x.test'));
});
afterAll(async () => {
  await gateway.close();
});

const create = (fields: Record<string, unknown>) =>
  gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${id}/requests`,
    headers: bearer(token),
    payload: {
      title: 'Coat',
      url: 'https://shop.example.com/coat',
      price: 19.99,
      currency: 'GBP',
      ...fields,
    },
  });

describe('a purchase request’s text', () => {
  it.each([
    ['title', 'Coat \u202e99.4 £'],
    ['title', 'Coat\u0000'],
    ['title', 'Co\u200bat'],
    ['note', 'please\u001b[2J'],
    ['size', 'M\u2066'],
  ])('refuses unshowable characters in %s (422 naming it)', async (field, value) => {
    const res = await create({ [field]: value });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', field]);
  });

  it('keeps a note’s line breaks, and nothing was saved by the refusals', async () => {
    const res = await create({ note: 'For school.\nThe blue one, please.' });
    expect(res.statusCode).toBe(201);
    expect(res.json().note).toBe('For school.\nThe blue one, please.');
    const listed = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/requests`,
      headers: bearer(token),
    });
    expect(listed.json()).toHaveLength(1);
  });
});
