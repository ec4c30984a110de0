// A signed upload URL is its asker's: a member removed from the household (or who left) cannot
// go on putting bytes into the household's storage with the URLs they asked for before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@hs/store';
import { type FakePeer, startFakeGatewayMembers } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadWardrobeConfig } from '../src/config.ts';
import { as, PNG, pathOf, TOKEN } from './helpers.ts';

const households: Record<string, string[]> = { h_1: ['usr_a', 'usr_b'] };
let gateway: FakePeer;
let app: Awaited<ReturnType<typeof buildApp>>;
const dir = mkdtempSync(join(tmpdir(), 'wardrobe-leaving-'));

beforeAll(async () => {
  gateway = await startFakeGatewayMembers(households);
  const config = loadWardrobeConfig({
    APP_ENV: 'test',
    WARDROBE_INTERNAL_TOKEN: TOKEN,
    GATEWAY_BASE_URL: gateway.url,
    COMMERCE_BASE_URL: 'http://127.0.0.1:9',
    ARTIFACT_LOCAL_DIR: dir,
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
  });
  app = await buildApp({ config, store: createStore({ backend: 'inmemory' }) });
});
afterAll(async () => {
  await app.close();
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

async function uploadUrlAs(userId: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/households/h_1/wardrobe/items',
    headers: as(userId),
    payload: { name: 'Rain jacket', category: 'OUTERWEAR' },
  });
  expect(created.statusCode).toBe(201);
  const itemId = created.json().itemId;
  const signed = await app.inject({
    method: 'POST',
    url: `/api/v1/households/h_1/wardrobe/items/${itemId}/upload-url`,
    headers: as(userId),
    payload: { contentType: 'image/png' },
  });
  expect(signed.statusCode).toBe(200);
  return signed.json() as { uploadUrl: string; headers: Record<string, string> };
}

const put = (signed: { uploadUrl: string; headers: Record<string, string> }) =>
  app.inject({ method: 'PUT', url: pathOf(signed.uploadUrl), headers: signed.headers, payload: PNG });

describe('an upload URL whose asker left the household', () => {
  it('takes no bytes once they are gone, and still takes those of a member', async () => {
    const leaving = await uploadUrlAs('usr_b');
    const staying = await uploadUrlAs('usr_a');
    households.h_1 = ['usr_a'];
    const refused = await put(leaving);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'The member who asked for this upload URL no longer belongs to the household',
    });
    expect((await put(staying)).statusCode).toBe(200);
  });
});
