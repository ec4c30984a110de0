// An image (or its item) deleted while its bytes are still streaming in: the removal deletes a
// file that is not there yet, so the upload must take its bytes back when it ends, or they stay
// on disk, uncounted by the household's quota and unreachable, for good.
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, headers, PNG, type TestWardrobe, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
let base: string;

beforeAll(async () => {
  app = await wardrobeApp();
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.stop();
});

/** PUTs a PNG in two halves, running `between` after the first half has reached the service. */
function putInTwoHalves(
  url: string,
  between: () => Promise<void>,
): Promise<{ status: number; body: string }> {
  const bytes = Buffer.concat([PNG, Buffer.alloc(200_000, 7)]);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'content-length': bytes.length },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(bytes.subarray(0, 100_000));
    setTimeout(() => {
      between().then(() => req.end(bytes.subarray(100_000)), reject);
    }, 300);
  });
}

async function signedUpload() {
  const item = await createItem(app);
  const signed = (
    await app.inject({
      method: 'POST',
      url: `/api/v1/households/h_1/wardrobe/items/${item.itemId}/upload-url`,
      headers,
      payload: { contentType: 'image/png' },
    })
  ).json();
  const url = new URL(signed.uploadUrl);
  return {
    itemId: item.itemId as string,
    imageId: signed.imageId as string,
    url: `${base}${url.pathname}${url.search}`,
  };
}

const filesOf = (itemId: string) => {
  const at = join(app.dir, 'households', 'h_1', 'items', itemId);
  return existsSync(at) ? readdirSync(at) : [];
};

describe('an upload whose image is deleted while it streams', () => {
  it('keeps no bytes when the image is deleted, and says the image is gone', async () => {
    const { itemId, imageId, url } = await signedUpload();
    const put = await putInTwoHalves(url, async () => {
      const deleted = await app.inject({
        method: 'DELETE',
        url: `/api/v1/households/h_1/wardrobe/items/${itemId}/images/${imageId}`,
        headers,
      });
      expect(deleted.statusCode).toBe(204);
    });
    expect(put.status).toBe(404);
    expect(JSON.parse(put.body)).toMatchObject({ error: 'NOT_FOUND' });
    expect(filesOf(itemId)).toEqual([]);
  });

  it('keeps no bytes when the whole item is deleted', async () => {
    const { itemId, url } = await signedUpload();
    const put = await putInTwoHalves(url, async () => {
      const deleted = await app.inject({
        method: 'DELETE',
        url: `/api/v1/households/h_1/wardrobe/items/${itemId}`,
        headers,
      });
      expect(deleted.statusCode).toBe(204);
    });
    expect(put.status).toBe(404);
    expect(filesOf(itemId)).toEqual([]);
  });

  it('keeps the bytes of an image that is still there', async () => {
    const { itemId, url } = await signedUpload();
    const put = await putInTwoHalves(url, async () => {});
    expect(put.status).toBe(200);
    expect(filesOf(itemId)).toHaveLength(1);
  });
});
