// Price bounds that are not numbers are refused (422), never read as 0: `z.coerce` used to turn
// `maxPrice=` (an empty field), `null`, `true` or `[]` into a bound of 0 or 1 and answer "no
// offers" as if that were the truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceApp, headers, offer } from './helpers.ts';

let app: Awaited<ReturnType<typeof commerceApp>>;
beforeAll(async () => {
  app = await commerceApp();
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/households/h_1/offers',
    headers,
    payload: offer({ price: 40 }),
  });
  expect(created.statusCode).toBe(201);
});
afterAll(() => app.close());

const list = (query: string) =>
  app.inject({ method: 'GET', url: `/api/v1/households/h_1/offers?${query}`, headers });
const search = (body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/v1/search', headers, payload: { householdId: 'h_1', ...body } });

describe('price bounds', () => {
  it('reads plain decimals in query strings', async () => {
    expect((await list('maxPrice=40')).json().items).toHaveLength(1);
    expect((await list('maxPrice=39.99')).json().items).toHaveLength(0);
    expect((await list('minPrice=40.0&maxPrice=100')).json().items).toHaveLength(1);
  });

  it('refuses query values that are not plain decimals with 422 naming the field', async () => {
    for (const value of ['', 'abc', 'NaN', 'Infinity', '1e400', '0x10', '-1', '1,5']) {
      const res = await list(`maxPrice=${encodeURIComponent(value)}`);
      expect({
        value,
        status: res.statusCode,
        error: res.json().error,
        loc: res.json().details?.[0]?.loc,
      }).toEqual({
        value,
        status: 422,
        error: 'VALIDATION_ERROR',
        loc: ['querystring', 'maxPrice'],
      });
    }
  });

  it('internal search: numbers work, null means no bound, booleans, arrays and strings are refused', async () => {
    expect((await search({ maxPrice: 40 })).json().items).toHaveLength(1);
    expect((await search({ maxPrice: '40' })).json().items).toHaveLength(1);
    const unbounded = await search({ maxPrice: null, minPrice: null });
    expect(unbounded.statusCode).toBe(200);
    expect(unbounded.json().items).toHaveLength(1);
    for (const value of [true, [], '', 'cheap', -1]) {
      const res = await search({ minPrice: value });
      expect({ value, status: res.statusCode, loc: res.json().details?.[0]?.loc }).toEqual({
        value,
        status: 422,
        loc: ['body', 'minPrice'],
      });
    }
  });

  it('still documents the bounds in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const params = doc.paths['/api/v1/households/{id}/offers'].get.parameters.map(
      (p: { name: string }) => p.name,
    );
    expect(params).toEqual(expect.arrayContaining(['maxPrice', 'minPrice']));
  });
});

describe('size keys', () => {
  it('reads the common spellings of one size as one key', async () => {
    const { sizeKeys } = await import('../src/domain/size-keys.ts');
    expect(sizeKeys('EU 42')).toEqual(['EU 42', '42']);
    expect(sizeKeys('eu42')).toEqual(['EU 42', '42']);
    expect(sizeKeys('Medium')).toEqual(['M']);
    expect(sizeKeys('X-Large')).toEqual(['XL']);
    expect(sizeKeys('8Y')).toEqual(['KIDS 8']);
    expect(sizeKeys('Kids 8')).toEqual(['KIDS 8']);
    expect(sizeKeys('age 8')).toEqual(['KIDS 8']);
    expect(sizeKeys('32')).toEqual(['32']);
  });

  it("reads a baby's month bands and newborn as the stylist's baby sizes", async () => {
    const { sizeKeys } = await import('../src/domain/size-keys.ts');
    for (const label of ['6-9 months', '6-9m', '6 - 9 Months', '6 to 9 mths', '06-09M', '6–9 mo.'])
      expect(sizeKeys(label), label).toEqual(['6-9M']);
    for (const label of ['NB', 'Newborn', 'new born']) expect(sizeKeys(label), label).toEqual(['NEWBORN']);
    // Not a band of months: left as the label says.
    expect(sizeKeys('6-9')).toEqual(['6-9']);
  });
});

// Every paging integer in a query string shares contracts' queryInteger: one route stands for all.
describe('paging integers', () => {
  it('reads plain digits and refuses other spellings with 422 naming the field', async () => {
    const one = await list('limit=1');
    expect(one.statusCode).toBe(200);
    expect(one.json().items).toHaveLength(1);
    for (const value of ['', '1e1', '0x10', ' 3 ', '2.5', '+3', '0', '101']) {
      const res = await list(`limit=${encodeURIComponent(value)}`);
      expect({ value, status: res.statusCode, loc: res.json().details?.[0]?.loc }).toEqual({
        value,
        status: 422,
        loc: ['querystring', 'limit'],
      });
    }
    expect((await list('limit=0x10')).json().details[0].msg).toMatch(/whole number written in digits/);
    // Out of bounds is told by its bound, not as a spelling mistake.
    expect((await list('limit=101')).json().details[0].msg).toMatch(/<=100/);
  });
});
