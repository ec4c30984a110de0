import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COLLECTIONS_PER_HOUSEHOLD } from '../src/domain/collections.ts';
import { as, createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const C = '/api/v1/households/h_1/wardrobe/feed/collections';
const child = { ...as('usr_b'), 'x-member-role': 'CHILD' };

describe('deleting collections and their entries', () => {
  let app: TestWardrobe;
  beforeAll(async () => {
    app = await wardrobeApp();
  });
  afterAll(() => app.stop());

  const create = (name = 'Looks', who = headers) =>
    app.inject({ method: 'POST', url: C, headers: who, payload: { name } });
  const del = (url: string, who = headers) => app.inject({ method: 'DELETE', url, headers: who });

  it('removes one entry (204), keeps the item; a second removal or another household is 404', async () => {
    const { itemId } = await createItem(app);
    const col = (await create()).json();
    await app.inject({
      method: 'POST',
      url: `${C}/${col.collectionId}/entries`,
      headers,
      payload: { type: 'ITEM', id: itemId },
    });
    const entry = `${C}/${col.collectionId}/entries/ITEM/${itemId}`;
    expect((await del(entry, child)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD may change only their own collections',
    });
    expect((await del(entry)).statusCode).toBe(204);
    const after = (await app.inject({ method: 'GET', url: `${C}/${col.collectionId}`, headers })).json();
    expect(after).toMatchObject({ entries: [], entryCount: 0 });
    expect((await del(entry)).json()).toEqual({ error: 'NOT_FOUND', message: 'Entry not found' });
    const theirs = `/api/v1/households/h_2/wardrobe/feed/collections/${col.collectionId}/entries/ITEM/${itemId}`;
    expect((await del(theirs, as('usr_c'))).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Collection not found',
    });
    const item = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_1/wardrobe/items/${itemId}`,
      headers,
    });
    expect(item.statusCode).toBe(200);
  });

  it('deletes a collection (204, then 404) and frees its place under the household cap', async () => {
    const mine = (await create('Mine', child)).json();
    const theirs = (await create('Parents')).json();
    expect((await del(`${C}/${theirs.collectionId}`, child)).json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD may change only their own collections',
    });
    expect((await del(`${C}/${mine.collectionId}`, child)).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: `${C}/${mine.collectionId}`, headers })).statusCode).toBe(
      404,
    );
    expect((await del(`${C}/${mine.collectionId}`)).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Collection not found',
    });

    const existing = (await app.inject({ method: 'GET', url: C, headers })).json().items.length;
    for (let i = existing; i < MAX_COLLECTIONS_PER_HOUSEHOLD; i++)
      expect((await create()).statusCode).toBe(201);
    expect((await create()).statusCode).toBe(409);
    expect((await del(`${C}/${theirs.collectionId}`)).statusCode).toBe(204);
    expect((await create()).statusCode).toBe(201);
  });
});
