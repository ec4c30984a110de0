import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it } from 'vitest';
import { as, createItem, headers, type TestWardrobe, wardrobeApp } from './helpers.ts';

const H = '/api/v1/households/h_1/wardrobe';
let app: TestWardrobe;
let dir: string | undefined;
afterEach(async () => {
  await app.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const postItem = (household = 'h_1') =>
  app.inject({
    method: 'POST',
    url: `/api/v1/households/${household}/wardrobe/items`,
    headers,
    payload: { category: 'TOP' },
  });
const itemCount = async () =>
  (await app.inject({ method: 'GET', url: `${H}/items?limit=100`, headers })).json().items.length;

describe.each(['inmemory', 'sqlite'] as const)("a household's wardrobe is bounded (%s)", (backend) => {
  const start = async (env: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'wardrobe-caps-'));
    const store =
      backend === 'sqlite'
        ? createStore({ backend: 'sqlite', file: join(dir, 'wardrobe.sqlite') })
        : createStore({ backend: 'inmemory' });
    app = await wardrobeApp({ env, store });
  };

  it('refuses the item past WARDROBE_MAX_ITEMS_PER_HOUSEHOLD (409), even in a burst, and a deletion frees a place', async () => {
    await start({ WARDROBE_MAX_ITEMS_PER_HOUSEHOLD: '3' });
    const burst = await Promise.all(Array.from({ length: 8 }, () => postItem()));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const refused = burst.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message:
        'This household already has 3 wardrobe items (WARDROBE_MAX_ITEMS_PER_HOUSEHOLD); delete some first',
    });
    expect(await itemCount()).toBe(3);
    // Another household has its own room.
    expect((await postItem('h_2')).statusCode).toBe(201);

    const first = burst.find((r) => r.statusCode === 201)!.json();
    expect(
      (await app.inject({ method: 'DELETE', url: `${H}/items/${first.itemId}`, headers })).statusCode,
    ).toBe(204);
    expect((await postItem()).statusCode).toBe(201);
    expect((await postItem()).statusCode).toBe(409);
  });

  it('refuses the outfit past WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD (409); deleting one frees its place', async () => {
    await start({ WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD: '2' });
    const item = await createItem(app);
    const save = () =>
      app.inject({
        method: 'POST',
        url: `${H}/outfits`,
        headers: as('usr_a'),
        payload: { itemIds: [item.itemId] },
      });
    const made = [await save(), await save()];
    expect(made.map((r) => r.statusCode)).toEqual([201, 201]);
    const third = await save();
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe(
      'This household already has 2 outfits (WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD); delete some first',
    );
    const gone = await app.inject({
      method: 'DELETE',
      url: `${H}/outfits/${made[0]!.json().outfitId}`,
      headers,
    });
    expect(gone.statusCode).toBe(204);
    expect((await save()).statusCode).toBe(201);
  });
});
