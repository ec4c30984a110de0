import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createLocalStorage,
  EmptyUploadError,
  UploadTooLargeError,
  verifyLocalUploadSignature,
} from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'storage-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = 'local-secret';
const storage = createLocalStorage({
  backend: 'local',
  dir,
  signingSecret: secret,
  publicBaseUrl: 'http://127.0.0.1:8080',
});

function queryOf(url: string) {
  return Object.fromEntries(new URL(url).searchParams) as Record<string, string>;
}

describe('local signed upload URLs', () => {
  it('are served under the public base URL and verify for the signed key and content type', async () => {
    const signed = await storage.signUpload('households/h_1/img_1', {
      contentType: 'image/png',
      maxBytes: 100,
      expiresInSeconds: 60,
    });
    expect(signed.url.startsWith('http://127.0.0.1:8080/api/v1/uploads/households/h_1/img_1?expires=')).toBe(
      true,
    );
    const check = verifyLocalUploadSignature({
      secret,
      method: 'PUT',
      key: 'households/h_1/img_1',
      contentType: 'image/png',
      query: queryOf(signed.url),
    });
    expect(check).toEqual({ ok: true, maxBytes: 100 });
  });

  it('reject a changed key, content type, limit, method or secret, and an expired URL', async () => {
    const signed = await storage.signUpload('households/h_1/img_1', {
      contentType: 'image/png',
      maxBytes: 100,
      expiresInSeconds: 60,
    });
    const q = queryOf(signed.url);
    const base = {
      secret,
      method: 'PUT' as const,
      key: 'households/h_1/img_1',
      contentType: 'image/png',
      query: q,
    };
    expect(verifyLocalUploadSignature({ ...base, key: 'households/h_2/img_1' }).ok).toBe(false);
    expect(verifyLocalUploadSignature({ ...base, contentType: 'image/jpeg' }).ok).toBe(false);
    expect(verifyLocalUploadSignature({ ...base, query: { ...q, max: '1000000' } }).ok).toBe(false);
    expect(verifyLocalUploadSignature({ ...base, method: 'GET' }).ok).toBe(false);
    expect(verifyLocalUploadSignature({ ...base, secret: 'other' }).ok).toBe(false);
    expect(verifyLocalUploadSignature({ ...base, query: { ...q, sig: undefined } })).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(verifyLocalUploadSignature({ ...base, now: Date.now() + 120_000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('stream uploads: over the limit or empty leaves no file behind', async () => {
    await expect(
      storage.receiveUpload('households/h_1/big', Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), {
        contentType: 'image/png',
        maxBytes: 100,
      }),
    ).rejects.toBeInstanceOf(UploadTooLargeError);
    await expect(
      storage.receiveUpload('households/h_1/empty', Readable.from([]), {
        contentType: 'image/png',
        maxBytes: 100,
      }),
    ).rejects.toBeInstanceOf(EmptyUploadError);
    expect(await storage.stat('households/h_1/big')).toBeNull();
    expect(await storage.stat('households/h_1/empty')).toBeNull();
    expect(readdirSync(join(dir, '.tmp'))).toEqual([]);
    const info = await storage.receiveUpload('households/h_1/ok', Readable.from([Buffer.alloc(100, 1)]), {
      contentType: 'image/png',
      maxBytes: 100,
    });
    expect(info).toMatchObject({ size: 100, contentType: 'image/png' });
  });
});
