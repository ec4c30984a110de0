import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@hs/store';
import { type FakePeer, startFakeGatewayMembers } from '@hs/testing';
import { buildApp } from '../src/app.ts';
import { loadWardrobeConfig } from '../src/config.ts';
import { fakeCommerce } from './fake-peers.ts';

export const TOKEN = 'test-wardrobe-token';
export const as = (userId: string) => ({
  'x-internal-token': TOKEN,
  'x-user-id': userId,
  'x-member-role': 'ADULT',
});
export const headers = as('usr_a');

/** 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export type TestWardrobe = Awaited<ReturnType<typeof buildApp>> & {
  gateway: FakePeer;
  commerce: FakePeer | null;
  dir: string;
  stop(): Promise<void>;
};

/**
 * The wardrobe app with local image storage in a temp dir, a fake gateway knowing households
 * h_1 (usr_a, usr_b) and h_2 (usr_c), and a fake commerce unless `commerce: null` (then the
 * commerce address is dead: "commerce down").
 */
export async function wardrobeApp(
  options: { env?: Record<string, string>; offers?: Record<string, unknown>[] | null } = {},
): Promise<TestWardrobe> {
  const dir = mkdtempSync(join(tmpdir(), 'wardrobe-test-'));
  const gateway = await startFakeGatewayMembers({ h_1: ['usr_a', 'usr_b'], h_2: ['usr_c'] });
  const commerce = options.offers === null ? null : await fakeCommerce(options.offers ?? []);
  const config = loadWardrobeConfig({
    APP_ENV: 'test',
    WARDROBE_INTERNAL_TOKEN: TOKEN,
    GATEWAY_BASE_URL: gateway.url,
    COMMERCE_BASE_URL: commerce?.url ?? 'http://127.0.0.1:9',
    ARTIFACT_LOCAL_DIR: dir,
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
    ...options.env,
  });
  const app = await buildApp({ config, store: createStore({ backend: 'inmemory' }) });
  return Object.assign(app, {
    gateway,
    commerce,
    dir,
    stop: async () => {
      await app.close();
      await gateway.close();
      await commerce?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** The path and query of a signed URL, for app.inject. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export async function createItem(
  app: TestWardrobe,
  body: Record<string, unknown> = {},
  household = 'h_1',
  user = 'usr_a',
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/households/${household}/wardrobe/items`,
    headers: as(user),
    payload: { category: 'TOP', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create item: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** upload-url, PUT the PNG to the signed URL, confirm: an item with a confirmed image. */
export async function addImage(app: TestWardrobe, itemId: string, household = 'h_1') {
  const base = `/api/v1/households/${household}/wardrobe/items/${itemId}`;
  const signed = (
    await app.inject({
      method: 'POST',
      url: `${base}/upload-url`,
      headers,
      payload: { contentType: 'image/png' },
    })
  ).json();
  const put = await app.inject({
    method: 'PUT',
    url: pathOf(signed.uploadUrl),
    headers: signed.headers,
    payload: PNG,
  });
  if (put.statusCode !== 200) throw new Error(`upload: ${put.statusCode} ${put.body}`);
  const confirm = await app.inject({
    method: 'POST',
    url: `${base}/images/${signed.imageId}/confirm`,
    headers,
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.statusCode} ${confirm.body}`);
  return confirm.json();
}
