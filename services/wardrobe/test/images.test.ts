import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { signedLocalUrl } from '@hs/storage';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createItem, headers, PNG, pathOf, type TestWardrobe, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
beforeAll(async () => {
  app = await wardrobeApp({ env: { UPLOAD_MAX_BYTES: '1000' } });
});
afterAll(() => app.stop());

const ITEMS = '/api/v1/households/h_1/wardrobe/items';
const uploadUrl = async (itemId: string, contentType = 'image/png') =>
  (
    await app.inject({
      method: 'POST',
      url: `${ITEMS}/${itemId}/upload-url`,
      headers,
      payload: { contentType, fileName: 'shirt.png' },
    })
  ).json();
const put = (url: string, body: Buffer, contentType = 'image/png') =>
  app.inject({ method: 'PUT', url, headers: { 'content-type': contentType }, payload: body });
const stored = (itemId: string) => {
  const dir = join(app.dir, 'households', 'h_1', 'items', itemId);
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('image uploads (local storage)', () => {
  it('signs an expiring upload URL on the public base URL and records a pending image', async () => {
    const item = await createItem(app);
    const res = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/upload-url`,
      headers,
      payload: { contentType: 'image/png' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'headers', 'imageId', 'method', 'uploadUrl']);
    expect(body).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/png' } });
    expect(body.imageId).toMatch(/^img_/);
    expect(body.uploadUrl).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:8080/api/v1/uploads/households/h_1/items/${item.itemId}/${body.imageId}\\?expires=\\d+&max=1000&sig=`,
      ),
    );
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    const after = (await app.inject({ method: 'GET', url: `${ITEMS}/${item.itemId}`, headers })).json();
    expect(after.images).toEqual([
      expect.objectContaining({
        imageId: body.imageId,
        status: 'pending',
        contentType: 'image/png',
        size: null,
        confirmedAt: null,
      }),
    ]);
    const wrongType = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/upload-url`,
      headers,
      payload: { contentType: 'text/html' },
    });
    expect(wrongType.statusCode).toBe(422);
  });

  it('stores the bytes, then confirm records size, type and checksum once (second confirm 409)', async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    const confirmUrl = `${ITEMS}/${item.itemId}/images/${signed.imageId}/confirm`;
    const early = await app.inject({ method: 'POST', url: confirmUrl, headers });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ error: 'BAD_REQUEST', message: 'No image bytes have been uploaded yet' });

    const res = await put(pathOf(signed.uploadUrl), PNG);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      size: PNG.length,
      contentType: 'image/png',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const confirmed = await app.inject({ method: 'POST', url: confirmUrl, headers });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().images[0]).toMatchObject({
      imageId: signed.imageId,
      status: 'confirmed',
      size: PNG.length,
      contentType: 'image/png',
      sha256: res.json().sha256,
      ref: `local://households/h_1/items/${item.itemId}/${signed.imageId}`,
    });
    const again = await app.inject({ method: 'POST', url: confirmUrl, headers });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'CONFLICT', message: 'Image is already confirmed' });
    // A confirmed image can't be overwritten through its old URL.
    expect((await put(pathOf(signed.uploadUrl), PNG)).statusCode).toBe(409);
  });

  it('takes one upload per signed URL: a second PUT is 409 and keeps the first bytes, even when racing', async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    const first = await put(pathOf(signed.uploadUrl), PNG);
    expect(first.statusCode).toBe(200);
    const other = Buffer.concat([PNG, Buffer.from('other bytes')]);
    const second = await put(pathOf(signed.uploadUrl), other);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'CONFLICT',
      message: 'An image was already uploaded to this URL; ask for a new upload URL',
    });
    const confirmed = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/images/${signed.imageId}/confirm`,
      headers,
    });
    expect(confirmed.json().images[0]).toMatchObject({ size: PNG.length, sha256: first.json().sha256 });

    // Two uploads at once to a fresh URL: exactly one is stored.
    const racing = await uploadUrl(item.itemId);
    const results = await Promise.all([
      put(pathOf(racing.uploadUrl), PNG),
      put(pathOf(racing.uploadUrl), other),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses tampered, expired, wrongly typed and oversized uploads, storing nothing', async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    const path = pathOf(signed.uploadUrl);
    const forbidden = (message: string) => ({ error: 'FORBIDDEN', message });

    const tampered = await put(
      path.replace(/sig=([A-Za-z0-9_-])/, (_m, c) => `sig=${c === 'A' ? 'B' : 'A'}`),
      PNG,
    );
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toEqual(forbidden('Upload URL signature is invalid'));
    const otherKey = await put(path.replace(signed.imageId, 'img_other'), PNG);
    expect(otherKey.json()).toEqual(forbidden('Upload URL signature is invalid'));
    const biggerLimit = await put(path.replace('max=1000', 'max=100000'), PNG);
    expect(biggerLimit.statusCode).toBe(403);

    const signedAsPng = await put(path, PNG, 'image/jpeg');
    expect(signedAsPng.statusCode).toBe(403);
    const notImage = await put(path, Buffer.from('<html>'), 'text/html');
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json()).toEqual({
      error: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Content-Type must be one of image/png, image/jpeg, image/webp',
    });

    const key = `households/h_1/items/${item.itemId}/${signed.imageId}`;
    const expiredUrl = signedLocalUrl('http://127.0.0.1:8080', 'dev-artifact-signing-secret-placeholder', {
      method: 'PUT',
      key,
      contentType: 'image/png',
      maxBytes: 1000,
      expires: Math.floor(Date.now() / 1000) - 1,
    });
    const expired = await put(pathOf(expiredUrl), PNG);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual(forbidden('Upload URL has expired'));

    const tooBig = await put(path, Buffer.alloc(1001, 7));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
      message: 'Upload is larger than 1000 bytes',
    });
    const empty = await put(path, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);

    expect(stored(item.itemId)).toEqual([]);
    expect(readdirSync(join(app.dir, '.tmp'))).toEqual([]);
    const confirm = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/images/${signed.imageId}/confirm`,
      headers,
    });
    expect(confirm.statusCode).toBe(400);
  });

  it('drops uploads abandoned an hour past their URL (and their bytes) to make room, never a fresh one; too late to confirm them', async () => {
    const item = await createItem(app);
    const first = await uploadUrl(item.itemId);
    expect((await put(pathOf(first.uploadUrl), PNG)).statusCode).toBe(200);
    for (let i = 1; i < 10; i++) await uploadUrl(item.itemId);
    const full = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/upload-url`,
      headers,
      payload: { contentType: 'image/png' },
    });
    expect(full.statusCode).toBe(409);
    expect(stored(item.itemId)).toEqual([first.imageId]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // UPLOAD_URL_TTL_SECONDS (default 900) and the hour a late confirm may take have passed.
      vi.setSystemTime(Date.now() + (900 + 3600 + 60) * 1000);
      // Too late to confirm it, as it is to find it again once dropped.
      const late = await app.inject({
        method: 'POST',
        url: `${ITEMS}/${item.itemId}/images/${first.imageId}/confirm`,
        headers,
      });
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toBe(
        'This upload was abandoned (its URL expired over an hour ago); ask for a new upload URL',
      );
      const next = await uploadUrl(item.itemId);
      expect(next.imageId).toMatch(/^img_/);
      const after = (await app.inject({ method: 'GET', url: `${ITEMS}/${item.itemId}`, headers })).json();
      expect(after.images.map((i: { imageId: string }) => i.imageId)).toEqual([next.imageId]);
      expect(stored(item.itemId)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hides another household's item and image as 404", async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    const foreign = `/api/v1/households/h_2/wardrobe/items/${item.itemId}`;
    const h2 = { ...headers, 'x-user-id': 'usr_c' };
    const a = await app.inject({
      method: 'POST',
      url: `${foreign}/upload-url`,
      headers: h2,
      payload: { contentType: 'image/png' },
    });
    expect(a.statusCode).toBe(404);
    const b = await app.inject({
      method: 'POST',
      url: `${foreign}/images/${signed.imageId}/confirm`,
      headers: h2,
    });
    expect(b.statusCode).toBe(404);
    const c = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/images/img_nope/confirm`,
      headers,
    });
    expect(c.json()).toEqual({ error: 'NOT_FOUND', message: 'Image not found' });
  });

  it('refuses bytes that are not the signed image type (415), storing nothing; served images are nosniff', async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    const path = pathOf(signed.uploadUrl);
    const html = await put(path, Buffer.from('<html><script>alert(1)</script></html>'));
    expect(html.statusCode).toBe(415);
    expect(html.json()).toEqual({
      error: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Upload bytes are not a image/png image',
    });
    const jpegAsPng = await put(
      path,
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
    );
    expect(jpegAsPng.statusCode).toBe(415);
    const tiny = await put(path, Buffer.from('GIF'));
    expect(tiny.statusCode).toBe(415);
    expect(stored(item.itemId)).toEqual([]);
    expect(readdirSync(join(app.dir, '.tmp'))).toEqual([]);
    // A real PNG through the same URL is taken, and read back as exactly image/png.
    expect((await put(path, PNG)).statusCode).toBe(200);
    const key = `households/h_1/items/${item.itemId}/${signed.imageId}`;
    const download = signedLocalUrl('http://127.0.0.1:8080', 'dev-artifact-signing-secret-placeholder', {
      method: 'GET',
      key,
      contentType: '',
      maxBytes: 0,
      expires: Math.floor(Date.now() / 1000) + 60,
    });
    const got = await app.inject({ method: 'GET', url: pathOf(download) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PNG)).toBe(true);
  });
});

describe('reading a confirmed image back', () => {
  it('serves the bytes at the contentPath the item gives, once confirmed, and not after the image is deleted', async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    const content = `${ITEMS}/${item.itemId}/images/${signed.imageId}/content`;
    const pending = (await app.inject({ method: 'GET', url: `${ITEMS}/${item.itemId}`, headers })).json();
    expect(pending.images[0].contentPath).toBeNull();
    expect((await app.inject({ method: 'GET', url: content, headers })).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Image has not been uploaded and confirmed yet',
    });

    await put(pathOf(signed.uploadUrl), PNG);
    const confirmed = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/images/${signed.imageId}/confirm`,
      headers,
    });
    expect(confirmed.json().images[0].contentPath).toBe(content);
    const read = await app.inject({ method: 'GET', url: content, headers });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.rawPayload).toEqual(PNG);
    expect(read.headers.etag).toBe(`"${confirmed.json().images[0].sha256}"`);
    const again = await app.inject({
      method: 'GET',
      url: content,
      headers: { ...headers, 'if-none-match': String(read.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `${ITEMS}/${item.itemId}/images/${signed.imageId}`,
          headers,
        })
      ).statusCode,
    ).toBe(204);
    expect((await app.inject({ method: 'GET', url: content, headers })).statusCode).toBe(404);
  });

  it("keeps another household's image out of reach (404)", async () => {
    const item = await createItem(app);
    const signed = await uploadUrl(item.itemId);
    await put(pathOf(signed.uploadUrl), PNG);
    await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/images/${signed.imageId}/confirm`,
      headers,
    });
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_2/wardrobe/items/${item.itemId}/images/${signed.imageId}/content`,
      headers,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
