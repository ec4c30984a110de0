import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { registerInternalAuth } from '../src/internal-auth.ts';

// Spec part 7: a missing item, outfit, image... is 404 NOT_FOUND; 422 is for bodies. An id in the
// path that cannot exist (longer than the contracts' 128, wrong alphabet) is missing like any other.
const TOKEN = 'internal-token-for-tests-0123456789';
const Id = z.string().min(1).max(128);
const H = '/api/v1/households/:id';

let app: ServiceApp;
beforeAll(async () => {
  app = await createServiceApp({ service: 'wardrobe', description: 'test' });
  registerInternalAuth(app, { token: TOKEN });
  app.patch(
    `${H}/items/:itemId`,
    {
      schema: {
        params: z.object({ id: Id, itemId: Id }),
        querystring: z.object({ n: z.coerce.number().int().optional() }),
        body: z.object({ name: z.string().min(1) }),
      },
    },
    async () => ({ ok: true }),
  );
  app.get(
    `${H}/collections/:collectionId/entries/:type/:entryId`,
    { schema: { params: z.object({ id: Id, collectionId: Id, type: z.enum(['ITEM']), entryId: Id }) } },
    async () => ({ ok: true }),
  );
  app.get(`${H}/vto/jobs/:jobId`, { schema: { params: z.object({ id: Id, jobId: Id }) } }, async () => ({}));
  app.get('/api/v1/widgets/:widgetId', { schema: { params: z.object({ widgetId: Id }) } }, async () => ({}));
  await app.ready();
});
afterAll(() => app.close());

const auth = { 'x-internal-token': TOKEN, 'x-user-id': 'usr_1' };
const long = (n: number) => `x${'a'.repeat(n - 1)}`;
const patchItem = (householdId: string, itemId: string, query = '', payload: object = { name: 'shirt' }) =>
  app.inject({
    method: 'PATCH',
    url: `/api/v1/households/${householdId}/items/${itemId}${query}`,
    headers: auth,
    payload,
  });

describe('an id in the path that cannot exist', () => {
  it.each([129, 512, 513, 5000])('%i characters: 404 NOT_FOUND naming the resource', async (n) => {
    const res = await patchItem('h_1', long(n));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Item not found' });
  });

  it('names the outermost impossible one: the household before its item', async () => {
    const res = await patchItem(long(200), long(200));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Household not found' });
  });

  it('is 404 whatever the body, which is never read (existence before schema)', async () => {
    const res = await patchItem('h_1', long(300), '', { name: 42 });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Item not found');
  });

  it('names the collection before a parameter (entries) or the service (try-on jobs); else "Not found"', async () => {
    const entry = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_1/collections/col_1/entries/SOCK/${long(20)}`,
      headers: auth,
    });
    expect(entry.statusCode).toBe(404);
    expect(entry.json()).toEqual({ error: 'NOT_FOUND', message: 'Entry not found' });
    const job = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_1/vto/jobs/${long(600)}`,
      headers: auth,
    });
    expect(job.json()).toEqual({ error: 'NOT_FOUND', message: 'Try-on job not found' });
    const widget = await app.inject({ method: 'GET', url: `/api/v1/widgets/${long(129)}`, headers: auth });
    expect(widget.statusCode).toBe(404);
    expect(widget.json()).toEqual({ error: 'NOT_FOUND', message: 'Not found' });
  });

  it('still answers 401/403 first: an over-long id does not skip authentication', async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/h_1/items/${long(5000)}`,
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).not.toBe('NOT_FOUND');
  });
});

describe('what is not a path id keeps its answer', () => {
  it('a bad querystring or body is 422 VALIDATION_ERROR with its loc', async () => {
    const query = await patchItem('h_1', 'itm_1', '?n=abc');
    expect(query.statusCode).toBe(422);
    expect(query.json().details).toEqual([
      { loc: ['querystring', 'n'], msg: expect.any(String), type: expect.any(String) },
    ]);
    const body = await patchItem('h_1', 'itm_1', '', { name: '' });
    expect(body.statusCode).toBe(422);
    expect(body.json().details).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: expect.any(String) },
    ]);
  });

  it('an id of 128 characters reaches the handler', async () => {
    expect((await patchItem('h_1', long(128))).statusCode).toBe(200);
  });
});
