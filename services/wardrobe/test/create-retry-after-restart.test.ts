// A create saved here whose answer never reached the gateway (the process was killed right after
// saving, or answered after the gateway's 504): the gateway kept no answer for the client's
// Idempotency-Key, so the client's retry comes here again. It must get the item already saved,
// not a second one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it } from 'vitest';
import { headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const dirs: string[] = [];
const apps: TestWardrobe[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The wardrobe on one sqlite file, started again on that file for each call (a restart). */
async function startOn(file: string) {
  const app = await wardrobeApp({ store: createStore({ backend: 'sqlite', file }) });
  apps.push(app);
  return app;
}

const create = (app: TestWardrobe, key: string | null, body: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/households/h_1/wardrobe/items',
    headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });

const items = async (app: TestWardrobe) =>
  (await app.inject({ method: 'GET', url: '/api/v1/households/h_1/wardrobe/items', headers: headers })).json()
    .items as Array<{ itemId: string }>;

describe('POST /items retried with its Idempotency-Key after a restart', () => {
  it('answers with the item the first attempt saved, and the household holds one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wardrobe-retry-'));
    dirs.push(dir);
    const file = join(dir, 'wardrobe.sqlite');
    const body = { category: 'TOP', brand: 'Acme', colors: ['blue'] };

    const before = await startOn(file);
    const first = await create(before, 'key-1', body);
    expect(first.statusCode).toBe(201);
    await before.stop();
    apps.splice(0);

    const after = await startOn(file);
    const retry = await create(after, 'key-1', body);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers.location).toBe(first.headers.location);
    expect((await items(after)).map((i) => i.itemId)).toEqual([first.json().itemId]);
  });

  it('keeps creating a new item for a new key, another body or no key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wardrobe-retry-'));
    dirs.push(dir);
    const app = await startOn(join(dir, 'wardrobe.sqlite'));
    const body = { category: 'TOP' };
    const ids = new Set<string>();
    for (const [key, b] of [
      ['key-1', body],
      ['key-2', body],
      ['key-1', { category: 'BOTTOM' }],
      [null, body],
      [null, body],
    ] as const) {
      const res = await create(app, key, b);
      expect(res.statusCode).toBe(201);
      ids.add(res.json().itemId);
    }
    expect(ids.size).toBe(5);
    expect(await items(app)).toHaveLength(5);
  });

  it('answers concurrent retries of one key with one item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wardrobe-retry-'));
    dirs.push(dir);
    const app = await startOn(join(dir, 'wardrobe.sqlite'));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => create(app, 'key-burst', { category: 'SHOES' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.json().itemId)).size).toBe(1);
    expect(await items(app)).toHaveLength(1);
  });

  it.each([
    ['/outfits', 'outfitId', '/outfits'],
    ['/feed/collections', 'collectionId', '/feed/collections'],
  ])('POST %s answers with what the first attempt saved', async (path, idField, listPath) => {
    const dir = mkdtempSync(join(tmpdir(), 'wardrobe-retry-'));
    dirs.push(dir);
    const file = join(dir, 'wardrobe.sqlite');
    const post = (app: TestWardrobe, payload: object) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/h_1/wardrobe${path}`,
        headers: { ...headers, 'idempotency-key': 'key-9' },
        payload,
      });
    const before = await startOn(file);
    const itemId = (await create(before, null, { category: 'TOP' })).json().itemId;
    const body = path === '/outfits' ? { name: 'Sunday', itemIds: [itemId] } : { name: 'Summer' };
    const first = await post(before, body);
    expect(first.statusCode).toBe(201);
    await before.stop();
    apps.splice(0);

    const after = await startOn(file);
    const retry = await post(after, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()[idField]).toBe(first.json()[idField]);
    const listed = (
      await after.inject({ method: 'GET', url: `/api/v1/households/h_1/wardrobe${listPath}`, headers })
    ).json().items as Array<Record<string, string>>;
    expect(listed.map((x) => x[idField])).toEqual([first.json()[idField]]);
  });
});
