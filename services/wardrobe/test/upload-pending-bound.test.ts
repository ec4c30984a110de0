import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { firestoreEmulatorHost } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addImage, as, createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const W = '/api/v1/households/h_1/wardrobe';
const BOUND = 3;
const dir = mkdtempSync(join(tmpdir(), 'wardrobe-pending-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const emulator = firestoreEmulatorHost();
if (!emulator) console.warn('Firestore emulator not available: the docstore case is SKIPPED');

describe.each([
  ['in memory', () => createStore({ backend: 'inmemory' })],
  ['sqlite', () => createStore({ backend: 'sqlite', file: join(dir, `${Math.random()}.sqlite`) })],
  ...(emulator
    ? [
        [
          'Firestore emulator',
          () =>
            createStore({
              backend: 'docstore',
              projectId: 'demo-wardrobe-test',
              namespace: `t${Math.random().toString(36).slice(2, 10)}_`,
            }),
        ] as const,
      ]
    : []),
] as const)('unconfirmed upload URLs one member may hold (%s)', (_name, open) => {
  let store: Store;
  let app: TestWardrobe;
  beforeAll(async () => {
    store = open();
    app = await wardrobeApp({ store, env: { WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER: String(BOUND) } });
  });
  afterAll(async () => {
    await app.stop();
    await store.close();
  });

  const uploadUrl = (itemId: string, user = 'usr_a') =>
    app.inject({
      method: 'POST',
      url: `${W}/items/${itemId}/upload-url`,
      headers: as(user),
      payload: { contentType: 'image/png' },
    });
  const refusal = {
    error: 'CONFLICT',
    message: `You have ${BOUND} image uploads waiting to be confirmed (WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER); confirm or delete them, or wait until they are dropped (an hour after their URL expires)`,
  };
  const deleteItem = (itemId: string, user = 'usr_a') =>
    app.inject({ method: 'DELETE', url: `${W}/items/${itemId}`, headers: as(user) });

  it('refuses a member past the bound, not the rest of the household; confirming frees a place', async () => {
    const { itemId } = await createItem(app);
    const urls = [];
    for (let i = 0; i < BOUND - 1; i++) urls.push(await uploadUrl(itemId));
    // An upload finished (bytes sent, confirmed) no longer counts.
    await addImage(app, itemId);
    urls.push(await uploadUrl(itemId));
    expect(urls.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const refused = await uploadUrl(itemId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(refusal);

    // Another member of the household still uploads.
    const theirs = await createItem(app, {}, 'h_1', 'usr_b');
    expect((await uploadUrl(theirs.itemId, 'usr_b')).statusCode).toBe(200);

    // Deleting a pending image frees its place too.
    const pendingId = urls[1]!.json().imageId;
    const removed = await app.inject({
      method: 'DELETE',
      url: `${W}/items/${itemId}/images/${pendingId}`,
      headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await uploadUrl(itemId)).statusCode).toBe(200);

    // Deleting the item frees every place its pending images held.
    expect((await deleteItem(itemId)).statusCode).toBe(204);
    const next = await createItem(app);
    for (let i = 0; i < BOUND; i++) expect((await uploadUrl(next.itemId)).statusCode).toBe(200);
    await deleteItem(next.itemId);
    await deleteItem(theirs.itemId, 'usr_b');
  });

  it('URLs never used free their places once abandoned (an hour after they expire)', async () => {
    const { itemId } = await createItem(app);
    for (let i = 0; i < BOUND; i++) expect((await uploadUrl(itemId)).statusCode).toBe(200);
    expect((await uploadUrl(itemId)).statusCode).toBe(409);
    // Their URLs expired over an hour ago (the clock is not mocked: the Firestore client needs it).
    const usage = store.collection<{ pending: Record<string, Record<string, number>> }>('upload_usage');
    await usage.update('h_1', (current) => {
      const mine = Object.keys(current!.pending.usr_a ?? {});
      return {
        ...current!,
        pending: { usr_a: Object.fromEntries(mine.map((id) => [id, Date.now() - 1000])) },
      };
    });
    expect((await uploadUrl(itemId)).statusCode).toBe(200);
    await deleteItem(itemId);
  });

  it('a burst from one member never passes the bound', async () => {
    const { itemId } = await createItem(app);
    const other = await createItem(app);
    const replies = await Promise.all([
      ...Array.from({ length: 3 }, () => uploadUrl(itemId)),
      ...Array.from({ length: 3 }, () => uploadUrl(other.itemId)),
    ]);
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(BOUND);
    expect(replies.filter((r) => r.statusCode === 409).map((r) => r.json())).toEqual(
      Array.from({ length: 6 - BOUND }, () => refusal),
    );
    await deleteItem(itemId);
    await deleteItem(other.itemId);
  });
});
