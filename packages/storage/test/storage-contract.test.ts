// One contract suite, run against every blob storage backend available here: `local` (files in
// a temp directory) and `cloudstore` (@google-cloud/storage pointed at a recorded-protocol fake
// of the Cloud Storage JSON API, since no Cloud Storage emulator exists on this machine).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStorage, createBlobStorage, InvalidKeyError } from '../src/index.ts';
import { startFakeCloudStorage } from './fake-cloud-storage-server.ts';
import { startLocalUploadServer } from './local-upload-server.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

type Backend = { name: string; storage: BlobStorage; refPrefix: string; stop: () => Promise<void> };

async function localBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), 'storage-contract-'));
  const secret = 'test-signing-secret';
  // The URL base is only known once the upload server listens; the storage is rebuilt with it.
  const probe = createBlobStorage({
    backend: 'local',
    dir,
    signingSecret: secret,
    publicBaseUrl: 'http://127.0.0.1:1',
  });
  const server = await startLocalUploadServer(probe, secret);
  const storage = createBlobStorage({
    backend: 'local',
    dir,
    signingSecret: secret,
    publicBaseUrl: server.url,
  });
  return {
    name: 'local',
    storage,
    refPrefix: 'local://',
    stop: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function cloudBackend(): Promise<Backend> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const fake = await startFakeCloudStorage({ bucket: 'test-bucket', publicKey });
  const storage = createBlobStorage({
    backend: 'cloudstore',
    bucket: 'test-bucket',
    apiEndpoint: fake.url,
    projectId: 'demo-test',
    credentials: {
      client_email: 'signer@demo-test.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
  });
  return { name: 'cloudstore', storage, refPrefix: 'gs://test-bucket/', stop: () => fake.close() };
}

describe.each([
  ['local', localBackend],
  ['cloudstore', cloudBackend],
])('blob storage contract: %s', (_name, start) => {
  let b: Backend;
  beforeAll(async () => {
    b = await start();
  });
  afterAll(async () => b?.stop());

  it('stores bytes and reads them back with size, content type and checksum', async () => {
    const info = await b.storage.put('households/h_1/items/item_1/img_a', PNG, 'image/png');
    expect(info).toMatchObject({
      key: 'households/h_1/items/item_1/img_a',
      size: PNG.length,
      contentType: 'image/png',
    });
    expect(info.sha256).toBe(sha256(PNG));
    const got = await b.storage.get('households/h_1/items/item_1/img_a');
    expect(Buffer.from(got!.bytes).equals(PNG)).toBe(true);
    expect(got!.info.sha256).toBe(sha256(PNG));
    const stat = await b.storage.stat('households/h_1/items/item_1/img_a');
    expect(stat).toMatchObject({ size: PNG.length, contentType: 'image/png', sha256: sha256(PNG) });
  });

  it('answers null for a missing object and deletes idempotently', async () => {
    expect(await b.storage.stat('households/h_1/missing')).toBeNull();
    expect(await b.storage.get('households/h_1/missing')).toBeNull();
    await b.storage.put('households/h_1/to-delete', PNG, 'image/png');
    await b.storage.delete('households/h_1/to-delete');
    expect(await b.storage.stat('households/h_1/to-delete')).toBeNull();
    await expect(b.storage.delete('households/h_1/to-delete')).resolves.toBeUndefined();
  });

  it('signs an upload URL that accepts a PUT of the bytes with the given headers', async () => {
    const key = 'households/h_1/items/item_1/img_signed';
    const signed = await b.storage.signUpload(key, {
      contentType: 'image/png',
      maxBytes: 1024,
      expiresInSeconds: 300,
    });
    expect(signed.method).toBe('PUT');
    expect(signed.headers['content-type']).toBe('image/png');
    expect(Date.parse(signed.expiresAt)).toBeGreaterThan(Date.now() + 250_000);
    const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: PNG });
    expect(res.status).toBe(200);
    expect(await b.storage.stat(key)).toMatchObject({ size: PNG.length, contentType: 'image/png' });
  });

  it('takes one upload per signed URL: a second PUT is refused and the first bytes stay', async () => {
    const key = 'households/h_1/items/item_1/img_once';
    const signed = await b.storage.signUpload(key, {
      contentType: 'image/png',
      maxBytes: 1024,
      expiresInSeconds: 300,
    });
    const first = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: PNG });
    expect(first.status).toBe(200);
    const other = Buffer.concat([PNG, Buffer.from('second')]);
    const second = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: other });
    // The local upload route answers 409 CONFLICT; Cloud Storage itself 412 Precondition Failed.
    expect([409, 412]).toContain(second.status);
    expect(await b.storage.stat(key)).toMatchObject({ size: PNG.length });
    // Leaving the precondition out breaks the signature: the header is part of what was signed.
    if (signed.headers['x-goog-if-generation-match']) {
      const { 'x-goog-if-generation-match': _dropped, ...unsafe } = signed.headers;
      const forced = await fetch(signed.url, { method: 'PUT', headers: unsafe, body: other });
      expect(forced.status).toBe(403);
      expect(await b.storage.stat(key)).toMatchObject({ size: PNG.length });
    }
  });

  it('refuses a PUT to a tampered signed URL and stores nothing', async () => {
    const key = 'households/h_1/items/item_1/img_tampered';
    const signed = await b.storage.signUpload(key, {
      contentType: 'image/png',
      maxBytes: 1024,
      expiresInSeconds: 300,
    });
    const tampered = signed.url.replace('img_tampered', 'img_other');
    const res = await fetch(tampered, { method: 'PUT', headers: signed.headers, body: PNG });
    expect(res.status).toBe(403);
    const wrongType = await fetch(signed.url, {
      method: 'PUT',
      headers: { ...signed.headers, 'content-type': 'image/jpeg' },
      body: PNG,
    });
    expect(wrongType.status).toBe(403);
    expect(await b.storage.stat(key)).toBeNull();
    expect(await b.storage.stat('households/h_1/items/item_1/img_other')).toBeNull();
  });

  it('refuses a body over the signed byte limit and stores nothing', async () => {
    const key = 'households/h_1/items/item_1/img_big';
    const signed = await b.storage.signUpload(key, {
      contentType: 'image/png',
      maxBytes: 16,
      expiresInSeconds: 300,
    });
    const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: PNG });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await b.storage.stat(key)).toBeNull();
  });

  it('gives references peers can resolve and refuses keys that could escape', async () => {
    expect(b.storage.refFor('households/h_1/x')).toBe(`${b.refPrefix}households/h_1/x`);
    await expect(b.storage.put('../etc/passwd', PNG, 'image/png')).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(b.storage.stat('households/../x')).rejects.toBeInstanceOf(InvalidKeyError);
  });
});
