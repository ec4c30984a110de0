import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteImageFetcher } from '../src/adapters/remote-image-fetcher.ts';
import { buildTestApp, garmentKey, HH, JPEG_BYTES, makePng, personKey, type TestApp } from './helpers.ts';

describe('try-on jobs with VTO_INFERENCE_BACKEND=inline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ VTO_INFERENCE_BACKEND: 'inline' });
    await t.storage.put(personKey(), makePng(200, 300), 'image/png');
    await t.storage.put(garmentKey(), makePng(100, 100, [200, 20, 20]), 'image/png');
  });
  afterAll(() => t.close());

  it('composes a real PNG preview, stores it, and serves it', async () => {
    const res = await t.submit({
      personImageRef: `local://${personKey()}`,
      garmentImageRef: `local://${garmentKey()}`,
    });
    expect(res.statusCode).toBe(202);
    const job = await t.waitForJob(res.json().jobId);
    expect(job).toMatchObject({ status: 'SUCCEEDED', error: null, backend: 'inline', attempts: 1 });
    const key = `households/${HH}/vto/${job.jobId}.png`;
    expect(job.resultImageRef).toBe(`local://${key}`);

    const stored = t.storage.objects.get(key);
    expect(stored?.info.contentType).toBe('image/png');
    // A 200×300 person fits 512×768 at 2.56×, plus the 40 px label band.
    const png = PNG.sync.read(Buffer.from(stored!.bytes));
    expect([png.width, png.height]).toEqual([512, 808]);
    // The garment's red lands on the torso; the label band is dark with white text.
    const at = (x: number, y: number) => [
      ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3),
    ];
    const torso = at(256, 330);
    expect(torso[0]).toBeGreaterThan(150);
    expect(torso[1]).toBeLessThan(60);
    expect(at(2, 790)).toEqual([31, 41, 55]);

    const served = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs/${job.jobId}/result`,
      headers: t.headers(),
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.rawPayload, Buffer.from(stored!.bytes))).toBe(0);
  });

  it('a missing input image ends the job FAILED with INPUT_MISSING', async () => {
    const ref = `local://households/${HH}/items/item_gone/img_9`;
    const res = await t.submit({ personImageRef: `local://${personKey()}`, garmentImageRef: ref });
    const job = await t.waitForJob(res.json().jobId);
    expect(job.status).toBe('FAILED');
    expect(job.error).toEqual({ code: 'INPUT_MISSING', message: `The garment image ${ref} does not exist` });
  });

  it('a JPEG input is refused with a clear FAILED error (no JPEG decoder in-process)', async () => {
    await t.storage.put(`households/${HH}/items/item_jpeg/img_1`, JPEG_BYTES, 'image/jpeg');
    const res = await t.submit({
      personImageRef: `local://households/${HH}/items/item_jpeg/img_1`,
      garmentImageRef: `local://${garmentKey()}`,
    });
    const job = await t.waitForJob(res.json().jobId);
    expect(job.error).toEqual({
      code: 'INPUT_UNSUPPORTED',
      message:
        'The person image is a JPEG; the inline try-on backend reads PNG images only. Upload a PNG or use the http backend.',
    });
  });

  it('bytes that are not an image end the job FAILED with INPUT_UNSUPPORTED', async () => {
    await t.storage.put(
      `households/${HH}/items/item_txt/img_1`,
      new TextEncoder().encode('hello'),
      'image/png',
    );
    const res = await t.submit({
      personImageRef: `local://${personKey()}`,
      garmentImageRef: `local://households/${HH}/items/item_txt/img_1`,
    });
    const job = await t.waitForJob(res.json().jobId);
    expect(job.error).toEqual({
      code: 'INPUT_UNSUPPORTED',
      message: 'The garment image is not a PNG or JPEG image',
    });
  });

  it('https inputs go through the SSRF-safe fetcher: an internal DNS answer ends FAILED with INPUT_FORBIDDEN', async () => {
    const remote = await buildTestApp(
      { VTO_INFERENCE_BACKEND: 'inline' },
      {
        fetcher: createRemoteImageFetcher({
          maxBytes: 1_000_000,
          timeoutMs: 1000,
          lookup: async () => [{ address: '10.0.0.7' }],
        }),
      },
    );
    try {
      await remote.storage.put(personKey(), makePng(20, 30), 'image/png');
      const res = await remote.submit({
        personImageRef: `local://${personKey()}`,
        garmentImageRef: 'https://shop.example.com/shirt.png',
      });
      const job = await remote.waitForJob(res.json().jobId);
      expect(job.error).toEqual({
        code: 'INPUT_FORBIDDEN',
        message:
          'Refused to fetch https://shop.example.com/shirt.png: shop.example.com resolves to an address that is not public',
      });
    } finally {
      await remote.close();
    }
  });

  it('an https garment image fetched remotely is composed like a stored one', async () => {
    const fetched: string[] = [];
    const remote = await buildTestApp(
      { VTO_INFERENCE_BACKEND: 'inline' },
      {
        fetcher: {
          fetch: async (url) => {
            fetched.push(url.href);
            return makePng(50, 50, [0, 0, 200]);
          },
          close: async () => {},
        },
      },
    );
    try {
      await remote.storage.put(personKey(), makePng(20, 30), 'image/png');
      const res = await remote.submit({
        personImageRef: `local://${personKey()}`,
        garmentImageRef: 'https://shop.example.com/shirt.png',
      });
      const job = await remote.waitForJob(res.json().jobId);
      expect(job.status).toBe('SUCCEEDED');
      expect(fetched).toEqual(['https://shop.example.com/shirt.png']);
    } finally {
      await remote.close();
    }
  });

  it('an oversized input is FAILED with INPUT_TOO_LARGE', async () => {
    const big = await buildTestApp({ VTO_INFERENCE_BACKEND: 'inline', VTO_MAX_IMAGE_BYTES: '100' });
    try {
      await big.storage.put(personKey(), makePng(200, 300), 'image/png');
      await big.storage.put(garmentKey(), makePng(100, 100), 'image/png');
      const res = await big.submit({
        personImageRef: `local://${personKey()}`,
        garmentImageRef: `local://${garmentKey()}`,
      });
      const job = await big.waitForJob(res.json().jobId);
      expect(job.error?.code).toBe('INPUT_TOO_LARGE');
    } finally {
      await big.close();
    }
  });
});
