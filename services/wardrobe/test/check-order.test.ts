// The order of checks (decisions, Conventions): membership and role (403) and the resource's
// existence (404) before the body is read (413, 400 syntax, 422 schema). A missing item, image,
// outfit or collection is 404 whatever the body; a CHILD's change to another member's item or
// collection is 403 before its body is looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestWardrobe, TOKEN, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
beforeAll(async () => {
  app = await wardrobeApp();
});
afterAll(() => app.stop());

const H = '/api/v1/households/h_1/wardrobe';
const member = (userId: string, role: string) => ({
  'x-internal-token': TOKEN,
  'x-user-id': userId,
  'x-member-role': role,
});
const JSON_TYPE = { 'content-type': 'application/json' };

/** Bad JSON, a body over the 1 MB limit, and a body the route's schema refuses. */
const BODIES = {
  'bad JSON': '{"a":',
  'an oversized body': JSON.stringify({ name: 'x'.repeat(1_100_000) }),
  'a schema-invalid body': JSON.stringify({ bogus: [1], category: 'HAT', type: 'NOPE', contentType: 1 }),
} as const;

type Method = 'POST' | 'PATCH' | 'DELETE';
const send = (method: Method, url: string, headers: Record<string, string>, body: string) =>
  app.inject({ method, url, headers: { ...headers, ...JSON_TYPE }, payload: body });

describe('a resource that is missing is 404 before the body is read', () => {
  // The last column: the route has a body schema (without one, no body is schema-invalid).
  const routes: Array<[Method, string, string, boolean]> = [
    ['POST', `${H}/items/item_missing/upload-url`, 'Item not found', true],
    ['PATCH', `${H}/items/item_missing`, 'Item not found', true],
    ['DELETE', `${H}/items/item_missing`, 'Item not found', false],
    ['POST', `${H}/items/item_missing/curate`, 'Item not found', false],
    ['POST', `${H}/items/item_missing/images/img_missing/confirm`, 'Item not found', false],
    ['DELETE', `${H}/items/item_missing/images/img_missing`, 'Item not found', false],
    ['DELETE', `${H}/outfits/out_missing`, 'Outfit not found', false],
    ['POST', `${H}/feed/collections/col_missing/entries`, 'Collection not found', true],
    ['DELETE', `${H}/feed/collections/col_missing`, 'Collection not found', false],
    ['DELETE', `${H}/feed/collections/col_missing/entries/ITEM/item_x`, 'Collection not found', false],
    ['PATCH', `${H}/items/${'x'.repeat(129)}`, 'Item not found', true],
  ];
  for (const [method, url, message, hasSchema] of routes)
    for (const [what, body] of Object.entries(BODIES).filter(
      ([w]) => hasSchema || w !== 'a schema-invalid body',
    ))
      it(`${method} ${url.replace(H, '').slice(0, 60)} with ${what}`, async () => {
        const res = await send(method, url, member('usr_a', 'ADULT'), body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'NOT_FOUND', message });
      });

  it('an image missing on an existing item, and an entry missing from a collection, likewise', async () => {
    const adult = member('usr_a', 'ADULT');
    const item = await app.inject({
      method: 'POST',
      url: `${H}/items`,
      headers: adult,
      payload: { category: 'TOP' },
    });
    const col = await app.inject({
      method: 'POST',
      url: `${H}/feed/collections`,
      headers: adult,
      payload: { name: 'Mine' },
    });
    const { itemId } = item.json();
    const { collectionId } = col.json();
    for (const body of Object.values(BODIES)) {
      for (const [method, url] of [
        ['POST', `${H}/items/${itemId}/images/img_missing/confirm`],
        ['DELETE', `${H}/items/${itemId}/images/img_missing`],
      ] as const) {
        const res = await send(method, url, adult, body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Image not found' });
      }
      const res = await send(
        'DELETE',
        `${H}/feed/collections/${collectionId}/entries/ITEM/${itemId}`,
        adult,
        body,
      );
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Entry not found' });
    }
  });
});

describe("a CHILD's change to another member's thing is 403 before the body is read", () => {
  it("a parent's item: PATCH, DELETE and upload-url, whatever the body", async () => {
    const parent = member('usr_a', 'PARENT_GUARDIAN');
    const created = await app.inject({
      method: 'POST',
      url: `${H}/items`,
      headers: parent,
      payload: { category: 'TOP' },
    });
    const { itemId } = created.json();
    const child = member('usr_b', 'CHILD');
    const refused = { error: 'FORBIDDEN', message: 'A CHILD may change only their own wardrobe items' };
    for (const body of [...Object.values(BODIES), JSON.stringify({ category: 'HAT' })])
      for (const [method, url] of [
        ['PATCH', `${H}/items/${itemId}`],
        ['DELETE', `${H}/items/${itemId}`],
        ['POST', `${H}/items/${itemId}/upload-url`],
        ['POST', `${H}/items/${itemId}/images/img_missing/confirm`],
      ] as const) {
        const res = await send(method, url, child, body);
        expect(res.statusCode, `${method} ${url} ${body.slice(0, 20)}`).toBe(403);
        expect(res.json()).toEqual(refused);
      }
    const after = await app.inject({ method: 'GET', url: `${H}/items/${itemId}`, headers: child });
    expect(after.json()).toMatchObject({ category: 'TOP', images: [] });
  });

  it("a parent's collection: adding an entry, whatever the body", async () => {
    const parent = member('usr_a', 'PARENT_GUARDIAN');
    const col = await app.inject({
      method: 'POST',
      url: `${H}/feed/collections`,
      headers: parent,
      payload: { name: 'Theirs' },
    });
    const { collectionId } = col.json();
    for (const body of Object.values(BODIES)) {
      const res = await send(
        'POST',
        `${H}/feed/collections/${collectionId}/entries`,
        member('usr_b', 'CHILD'),
        body,
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'FORBIDDEN',
        message: 'A CHILD may change only their own collections',
      });
    }
  });

  it('a CHILD still gets the body checked on their own item (422 after the checks pass)', async () => {
    const child = member('usr_b', 'CHILD');
    const own = await app.inject({
      method: 'POST',
      url: `${H}/items`,
      headers: child,
      payload: { category: 'TOP' },
    });
    const res = await send(
      'PATCH',
      `${H}/items/${own.json().itemId}`,
      child,
      JSON.stringify({ category: 'HAT' }),
    );
    expect(res.statusCode).toBe(422);
    const bad = await send('PATCH', `${H}/items/${own.json().itemId}`, child, '{"a":');
    expect(bad.statusCode).toBe(400);
  });
});
