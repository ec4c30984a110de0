import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestWardrobe, TOKEN, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
beforeEach(async () => {
  app = await wardrobeApp();
});
afterEach(() => app.stop());

const H = '/api/v1/households/h_1/wardrobe';
const member = (userId: string, role: string) => ({
  'x-internal-token': TOKEN,
  'x-user-id': userId,
  'x-member-role': role,
});
const CHILD_REFUSED = { error: 'FORBIDDEN', message: 'A CHILD may change only their own wardrobe items' };

async function itemOf(userId: string, role: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `${H}/items`,
    headers: member(userId, role),
    payload: { category: 'TOP' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().itemId;
}

describe("a CHILD and another member's wardrobe items", () => {
  it('cannot edit, delete or add images to them (403), and the item is unchanged', async () => {
    const parentsItem = await itemOf('usr_a', 'PARENT_GUARDIAN');
    const child = member('usr_b', 'CHILD');
    const attempts = [
      { method: 'PATCH', url: `${H}/items/${parentsItem}`, payload: { brand: 'Mine now' } },
      { method: 'DELETE', url: `${H}/items/${parentsItem}` },
      { method: 'POST', url: `${H}/items/${parentsItem}/upload-url`, payload: { contentType: 'image/png' } },
    ] as const;
    for (const attempt of attempts) {
      const res = await app.inject({ ...attempt, headers: child });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(CHILD_REFUSED);
    }
    const item = await app.inject({ method: 'GET', url: `${H}/items/${parentsItem}`, headers: child });
    expect(item.json()).toMatchObject({ brand: '', images: [] });
  });

  it('can still edit and delete their own', async () => {
    const own = await itemOf('usr_b', 'CHILD');
    const child = member('usr_b', 'CHILD');
    const patched = await app.inject({
      method: 'PATCH',
      url: `${H}/items/${own}`,
      headers: child,
      payload: { brand: 'Mine' },
    });
    expect(patched.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'DELETE', url: `${H}/items/${own}`, headers: child })).statusCode,
    ).toBe(204);
  });

  it("leaves an ADULT free to edit another member's item", async () => {
    const childsItem = await itemOf('usr_b', 'CHILD');
    const res = await app.inject({
      method: 'PATCH',
      url: `${H}/items/${childsItem}`,
      headers: member('usr_a', 'ADULT'),
      payload: { brand: 'Fixed' },
    });
    expect(res.statusCode).toBe(200);
  });
});
