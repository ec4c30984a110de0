import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestWardrobe, TOKEN, uploadImage, wardrobeApp } from './helpers.ts';

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

describe("a CHILD and another member's images", () => {
  it("cannot confirm an image of another member's item (403); the image stays pending", async () => {
    const parentsItem = await itemOf('usr_a', 'PARENT_GUARDIAN');
    const parent = member('usr_a', 'PARENT_GUARDIAN');
    const signed = await uploadImage(app, parentsItem, 'h_1', parent);
    const res = await app.inject({
      method: 'POST',
      url: `${H}/items/${parentsItem}/images/${signed.imageId}/confirm`,
      headers: member('usr_b', 'CHILD'),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(CHILD_REFUSED);
    const item = await app.inject({ method: 'GET', url: `${H}/items/${parentsItem}`, headers: parent });
    expect(item.json().images).toEqual([expect.objectContaining({ status: 'pending' })]);
  });
});

describe('a CHILD and who owns a wardrobe item', () => {
  const child = member('usr_b', 'CHILD');

  it('cannot create an item owned by another member, even a non-member (403), and nothing is created', async () => {
    for (const ownerMemberId of ['usr_a', 'usr_c']) {
      const res = await app.inject({
        method: 'POST',
        url: `${H}/items`,
        headers: child,
        payload: { category: 'TOP', ownerMemberId },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(CHILD_REFUSED);
    }
    const list = await app.inject({ method: 'GET', url: `${H}/items`, headers: child });
    expect(list.json().items).toEqual([]);
  });

  it('cannot hand their own item to another member (403), and it stays theirs', async () => {
    const own = await itemOf('usr_b', 'CHILD');
    const res = await app.inject({
      method: 'PATCH',
      url: `${H}/items/${own}`,
      headers: child,
      payload: { ownerMemberId: 'usr_a', brand: 'Gift' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(CHILD_REFUSED);
    const item = await app.inject({ method: 'GET', url: `${H}/items/${own}`, headers: child });
    expect(item.json()).toMatchObject({ ownerMemberId: 'usr_b', brand: '' });
  });

  it('may name themselves as the owner', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `${H}/items`,
      headers: child,
      payload: { category: 'TOP', ownerMemberId: 'usr_b' },
    });
    expect(created.statusCode).toBe(201);
    const patched = await app.inject({
      method: 'PATCH',
      url: `${H}/items/${created.json().itemId}`,
      headers: child,
      payload: { ownerMemberId: 'usr_b' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().ownerMemberId).toBe('usr_b');
  });

  it('leaves an ADULT free to give an item to another member, but not to a non-member (400)', async () => {
    const adult = member('usr_a', 'ADULT');
    const created = await app.inject({
      method: 'POST',
      url: `${H}/items`,
      headers: adult,
      payload: { category: 'TOP', ownerMemberId: 'usr_b' },
    });
    expect(created.statusCode).toBe(201);
    const url = `${H}/items/${created.json().itemId}`;
    const back = await app.inject({
      method: 'PATCH',
      url,
      headers: adult,
      payload: { ownerMemberId: 'usr_a' },
    });
    expect(back.statusCode).toBe(200);
    expect(back.json().ownerMemberId).toBe('usr_a');
    const stranger = await app.inject({
      method: 'PATCH',
      url,
      headers: adult,
      payload: { ownerMemberId: 'usr_c' },
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toEqual({
      error: 'BAD_REQUEST',
      message: 'ownerMemberId is not a household member',
    });
  });
});

describe("a CHILD and another member's outfits and collections", () => {
  const F = `${H}/feed/collections`;
  const child = member('usr_b', 'CHILD');

  async function outfitOf(userId: string, role: string): Promise<string> {
    const item = await itemOf(userId, role);
    const res = await app.inject({
      method: 'POST',
      url: `${H}/outfits`,
      headers: member(userId, role),
      payload: { itemIds: [item], name: 'Look' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().createdBy).toBe(userId);
    return res.json().outfitId;
  }

  async function collectionOf(userId: string, role: string): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: F,
      headers: member(userId, role),
      payload: { name: 'Picks' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().createdBy).toBe(userId);
    return res.json().collectionId;
  }

  const deleteOutfit = (outfitId: string, headers: Record<string, string>) =>
    app.inject({ method: 'DELETE', url: `${H}/outfits/${outfitId}`, headers });
  const addEntry = (collectionId: string, headers: Record<string, string>, payload: object) =>
    app.inject({ method: 'POST', url: `${F}/${collectionId}/entries`, headers, payload });

  it("cannot delete another member's outfit (403), which stays", async () => {
    const parentsOutfit = await outfitOf('usr_a', 'PARENT_GUARDIAN');
    const res = await deleteOutfit(parentsOutfit, child);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'A CHILD may change only their own outfits' });
    const still = await app.inject({ method: 'GET', url: `${H}/outfits/${parentsOutfit}`, headers: child });
    expect(still.statusCode).toBe(200);
  });

  it("cannot add entries to another member's collection (403), which stays unchanged", async () => {
    const parentsCollection = await collectionOf('usr_a', 'PARENT_GUARDIAN');
    const own = await itemOf('usr_b', 'CHILD');
    const res = await addEntry(parentsCollection, child, { type: 'ITEM', id: own });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD may change only their own collections',
    });
    // Refused before the entry is looked up: a missing one is 403 too, not 404.
    const missing = await addEntry(parentsCollection, child, { type: 'OUTFIT', id: 'out_nope' });
    expect(missing.statusCode).toBe(403);
    const still = await app.inject({ method: 'GET', url: `${F}/${parentsCollection}`, headers: child });
    expect(still.json().entries).toEqual([]);
  });

  it('can still delete their own outfit and add to their own collection', async () => {
    const ownOutfit = await outfitOf('usr_b', 'CHILD');
    const ownCollection = await collectionOf('usr_b', 'CHILD');
    const added = await addEntry(ownCollection, child, { type: 'OUTFIT', id: ownOutfit });
    expect(added.statusCode).toBe(200);
    expect(added.json().entries).toEqual([expect.objectContaining({ id: ownOutfit, addedBy: 'usr_b' })]);
    expect((await deleteOutfit(ownOutfit, child)).statusCode).toBe(204);
  });

  it("leaves an ADULT free to change another member's outfit and collection", async () => {
    const childsOutfit = await outfitOf('usr_b', 'CHILD');
    const childsCollection = await collectionOf('usr_b', 'CHILD');
    const adult = member('usr_a', 'ADULT');
    const added = await addEntry(childsCollection, adult, { type: 'OUTFIT', id: childsOutfit });
    expect(added.statusCode).toBe(200);
    expect((await deleteOutfit(childsOutfit, adult)).statusCode).toBe(204);
  });

  it("treats an outfit or collection without a creator as nobody's: only an ADULT or PARENT_GUARDIAN changes it", async () => {
    // Made by a service's own call (its token, no member): createdBy null.
    const service = { 'x-internal-token': TOKEN };
    const item = await itemOf('usr_b', 'CHILD');
    const outfit = await app.inject({
      method: 'POST',
      url: `${H}/outfits`,
      headers: service,
      payload: { itemIds: [item] },
    });
    const collection = await app.inject({
      method: 'POST',
      url: F,
      headers: service,
      payload: { name: 'Old' },
    });
    expect([outfit.json().createdBy, collection.json().createdBy]).toEqual([null, null]);
    const { outfitId } = outfit.json();
    const { collectionId } = collection.json();

    expect((await addEntry(collectionId, child, { type: 'OUTFIT', id: outfitId })).statusCode).toBe(403);
    expect((await deleteOutfit(outfitId, child)).statusCode).toBe(403);
    const parent = member('usr_a', 'PARENT_GUARDIAN');
    expect((await addEntry(collectionId, parent, { type: 'OUTFIT', id: outfitId })).statusCode).toBe(200);
    expect((await deleteOutfit(outfitId, parent)).statusCode).toBe(204);
  });
});
