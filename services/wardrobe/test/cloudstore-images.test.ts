// The cloudstore path: upload-url hands out a Cloud Storage V4 signed URL and confirm checks the
// object exists. No Cloud Storage emulator exists here, so the storage package's
// recorded-protocol fake of the JSON API stands in (it verifies the V4 signature).
import { generateKeyPairSync } from 'node:crypto';
import { createBlobStorage } from '@hs/storage';
import { createStore } from '@hs/store';
import { type FakePeer, startFakeGatewayMembers } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeCloudStorage,
  startFakeCloudStorage,
} from '../../../packages/storage/test/fake-cloud-storage-server.ts';
import { buildApp } from '../src/app.ts';
import { loadWardrobeConfig } from '../src/config.ts';
import { headers, PNG, TOKEN } from './helpers.ts';

let fake: FakeCloudStorage;
let gateway: FakePeer;
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  fake = await startFakeCloudStorage({ bucket: 'wardrobe-bucket', publicKey });
  gateway = await startFakeGatewayMembers({ h_1: ['usr_a'] });
  const config = loadWardrobeConfig({
    APP_ENV: 'test',
    WARDROBE_INTERNAL_TOKEN: TOKEN,
    GATEWAY_BASE_URL: gateway.url,
    ARTIFACT_STORAGE_BACKEND: 'cloudstore',
    ARTIFACT_BUCKET: 'wardrobe-bucket',
  });
  const storage = createBlobStorage({
    backend: 'cloudstore',
    bucket: 'wardrobe-bucket',
    apiEndpoint: fake.url,
    credentials: {
      client_email: 'wardrobe@demo-test.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
  });
  app = await buildApp({ config, store: createStore({ backend: 'inmemory' }), storage });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  await gateway?.close();
});

describe('images on Cloud Storage', () => {
  it('signs a V4 URL, and confirm succeeds only once the object exists', async () => {
    const item = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/households/h_1/wardrobe/items',
        headers,
        payload: { category: 'TOP' },
      })
    ).json();
    const base = `/api/v1/households/h_1/wardrobe/items/${item.itemId}`;
    const signed = (
      await app.inject({
        method: 'POST',
        url: `${base}/upload-url`,
        headers,
        payload: { contentType: 'image/png' },
      })
    ).json();
    expect(signed.uploadUrl).toContain('X-Goog-Algorithm=GOOG4-RSA-SHA256');
    expect(signed.headers).toEqual({
      'content-type': 'image/png',
      'x-goog-content-length-range': `0,${10 * 1024 * 1024}`,
      'x-goog-if-generation-match': '0',
    });
    const confirm = () =>
      app.inject({ method: 'POST', url: `${base}/images/${signed.imageId}/confirm`, headers });
    expect((await confirm()).statusCode).toBe(400);
    const put = await fetch(signed.uploadUrl, { method: 'PUT', headers: signed.headers, body: PNG });
    expect(put.status).toBe(200);
    const ok = await confirm();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().images[0]).toMatchObject({
      status: 'confirmed',
      size: PNG.length,
      contentType: 'image/png',
      ref: `gs://wardrobe-bucket/households/h_1/items/${item.itemId}/${signed.imageId}`,
    });
    expect((await confirm()).statusCode).toBe(409);
    // The local upload route does not exist with cloudstore.
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/v1/uploads/x',
          headers: { 'content-type': 'image/png' },
          payload: PNG,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('confirm refuses bytes that are not the signed image type, and deletes them', async () => {
    const item = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/households/h_1/wardrobe/items',
        headers,
        payload: { category: 'TOP' },
      })
    ).json();
    const base = `/api/v1/households/h_1/wardrobe/items/${item.itemId}`;
    const signed = (
      await app.inject({
        method: 'POST',
        url: `${base}/upload-url`,
        headers,
        payload: { contentType: 'image/png' },
      })
    ).json();
    // The bucket checks the signed content type header, not what the bytes are.
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect(
      (await fetch(signed.uploadUrl, { method: 'PUT', headers: signed.headers, body: html })).status,
    ).toBe(200);
    const confirm = () =>
      app.inject({ method: 'POST', url: `${base}/images/${signed.imageId}/confirm`, headers });
    const refused = await confirm();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'BAD_REQUEST',
      message: 'The uploaded bytes are not a image/png image; upload it again',
    });
    // Deleted: confirming again finds no bytes; a real PNG through the same URL then confirms.
    expect((await confirm()).json().message).toBe('No image bytes have been uploaded yet');
    expect(
      (await fetch(signed.uploadUrl, { method: 'PUT', headers: signed.headers, body: PNG })).status,
    ).toBe(200);
    const ok = await confirm();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().images[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
