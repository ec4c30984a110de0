// A signed upload PUT when the blob storage cannot take the bytes: a prompt 503
// SERVICE_UNAVAILABLE in the error envelope (never a 500, never a hang), nothing stored, the
// image still pending, and the same URL works once the storage is back.
import { renameSync, rmSync, symlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, headers, PNG, type TestWardrobe, wardrobeApp } from './helpers.ts';

let app: TestWardrobe;
let base: string;
beforeAll(async () => {
  app = await wardrobeApp();
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.stop());

const ITEMS = '/api/v1/households/h_1/wardrobe/items';

/** ARTIFACT_LOCAL_DIR turns into a path nothing can be created under (an unmounted volume, /proc). */
function breakStorage(): () => void {
  renameSync(app.dir, `${app.dir}.real`);
  symlinkSync('/proc/nope', app.dir);
  return () => {
    rmSync(app.dir);
    renameSync(`${app.dir}.real`, app.dir);
  };
}

describe('upload PUT when blob storage cannot take a write', () => {
  it('answers 503 in the envelope at once; the image stays pending and the URL works again later', async () => {
    const item = await createItem(app);
    const signed = (
      await app.inject({
        method: 'POST',
        url: `${ITEMS}/${item.itemId}/upload-url`,
        headers,
        payload: { contentType: 'image/png' },
      })
    ).json();
    const url = new URL(signed.uploadUrl);
    const target = `${base}${url.pathname}${url.search}`;
    // Larger than the stream buffers: the part storage never read is drained, not left hanging.
    const big = Buffer.alloc(300_000, 7);
    PNG.copy(big);

    const repair = breakStorage();
    let res: Response;
    try {
      res = await fetch(target, {
        method: 'PUT',
        headers: signed.headers,
        body: big,
        signal: AbortSignal.timeout(5000),
      });
    } finally {
      repair();
    }
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: 'SERVICE_UNAVAILABLE',
      message:
        'Blob storage directory is missing and cannot be created: nothing was saved (ENOENT); try again later',
    });
    const after = (await app.inject({ method: 'GET', url: `${ITEMS}/${item.itemId}`, headers })).json();
    expect(after.images).toEqual([expect.objectContaining({ imageId: signed.imageId, status: 'pending' })]);

    const retry = await fetch(target, { method: 'PUT', headers: signed.headers, body: PNG });
    expect(retry.status).toBe(200);
    const confirm = await app.inject({
      method: 'POST',
      url: `${ITEMS}/${item.itemId}/images/${signed.imageId}/confirm`,
      headers,
    });
    expect(confirm.statusCode).toBe(200);
  });
});
