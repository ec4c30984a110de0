// A create saved here whose answer never reached the gateway (the process was killed right after
// saving, or answered after the gateway's 504): the gateway kept no answer for the client's
// Idempotency-Key, so the client's retry comes here again. It must get the offers already saved,
// not a second set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it } from 'vitest';
import { commerceApp, headers, offer } from './helpers.ts';

type App = Awaited<ReturnType<typeof commerceApp>>;
const dirs: string[] = [];
const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sqliteFile() {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-retry-'));
  dirs.push(dir);
  return join(dir, 'commerce.sqlite');
}

async function startOn(file: string) {
  const app = await commerceApp({}, createStore({ backend: 'sqlite', file }));
  apps.push(app);
  return app;
}

async function restart(app: App, file: string) {
  await app.close();
  apps.splice(apps.indexOf(app), 1);
  return startOn(file);
}

const post = (app: App, path: string, key: string | null, payload: object) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/households/h_1${path}`,
    headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

const held = async (app: App) =>
  (await app.inject({ method: 'GET', url: '/api/v1/households/h_1/offers?limit=100', headers })).json()
    .items as Array<{ offerId: string }>;

describe('offer creates retried with their Idempotency-Key after a restart', () => {
  it('POST /offers/bulk answers with the batch the first attempt saved, all of it once', async () => {
    const file = sqliteFile();
    const batch = {
      offers: [0, 1, 2].map((i) => offer({ title: `Shirt ${i}`, url: `https://shop.acme.com/p/${i}` })),
    };
    const first = await post(await startOn(file), '/offers/bulk', 'bulk-1', batch);
    expect(first.statusCode).toBe(201);
    const after = await restart(apps[0]!, file);
    const retry = await post(after, '/offers/bulk', 'bulk-1', batch);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect((await held(after)).map((o) => o.offerId).sort()).toEqual(
      first
        .json()
        .items.map((o: { offerId: string }) => o.offerId)
        .sort(),
    );
  });

  it('POST /offers answers with the offer the first attempt saved', async () => {
    const file = sqliteFile();
    const first = await post(await startOn(file), '/offers', 'one-1', offer());
    expect(first.statusCode).toBe(201);
    const after = await restart(apps[0]!, file);
    const retry = await post(after, '/offers', 'one-1', offer());
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await held(after)).toHaveLength(1);
  });

  it('a new key, another body or no key still create', async () => {
    const app = await startOn(sqliteFile());
    for (const [key, body] of [
      ['k', offer()],
      ['k2', offer()],
      ['k', offer({ price: 41 })],
      [null, offer()],
    ] as const)
      expect((await post(app, '/offers', key, body)).statusCode).toBe(201);
    expect(await held(app)).toHaveLength(4);
  });
});
