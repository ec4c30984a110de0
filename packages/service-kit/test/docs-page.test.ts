// /docs is built on its first visit (docs-page.ts): it must answer as the plugin did when it was
// registered at boot, with this app's 404 envelope for paths the page does not have.

import fs from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;
const bundle = '/docs/static/swagger-ui-bundle.js';

type Got = { status: number; headers: IncomingHttpHeaders; body: Buffer };
/** A GET over real HTTP that sends the path as written (fetch would resolve `.` and `..`). */
function getRaw(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Got> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Counts the static-file server's reads of the bundle from disk. */
function countBundleReads(): { reads: () => number; restore: () => void } {
  const spy = vi.spyOn(fs, 'createReadStream');
  return {
    reads: () => spy.mock.calls.filter(([path]) => String(path).endsWith('swagger-ui-bundle.js')).length,
    restore: () => spy.mockRestore(),
  };
}

async function listening(description: string): Promise<{ served: ServiceApp; port: number }> {
  const served = await createServiceApp({ service: 'wardrobe', description });
  await served.listen({ port: 0, host: '127.0.0.1' });
  return { served, port: (served.server.address() as AddressInfo).port };
}

beforeAll(async () => {
  app = await createServiceApp({ service: 'wardrobe', description: 'docs page' });
  app.get('/api/v1/thing', async () => ({ name: 'thing' }));
  await app.ready();
});
afterAll(() => app.close());

describe('the docs page', () => {
  it('serves the page, its files and the document, the same for concurrent first visits', async () => {
    const [page, again] = await Promise.all([
      app.inject({ method: 'GET', url: '/docs' }),
      app.inject({ method: 'GET', url: '/docs' }),
    ]);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(again.body).toBe(page.body);
    const doc = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(doc.json().paths).toHaveProperty(['/api/v1/thing']);
    expect(doc.headers['x-request-id']).toBeTruthy();
  });

  it('answers HEAD with the file length and no body, and a matching ETag with a bare 304', async () => {
    const css = await app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
    const head = await app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(css.rawPayload.length));
    expect(head.body).toBe('');
    const etag = String(css.headers.etag);
    const cached = await app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui.css',
      headers: { 'if-none-match': etag },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers['content-length']).toBeUndefined();
    expect(cached.headers['content-type']).toBeUndefined();
  });

  it('answers repeated GETs of a file from one kept copy, and still revalidates conditional ones', async () => {
    const url = '/docs/static/swagger-ui-bundle.js';
    const [first, second] = await Promise.all([
      app.inject({ method: 'GET', url }),
      app.inject({ method: 'GET', url }),
    ]);
    const third = await app.inject({ method: 'GET', url });
    expect(third.statusCode).toBe(200);
    expect(third.headers['content-type']).toMatch(/javascript/);
    expect(third.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.rawPayload.length).toBe(first.rawPayload.length);
    expect(third.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const revalidated = await app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(third.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    const other = await app.inject({ method: 'GET', url: `${url}?v=2` });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.length).toBe(first.rawPayload.length);
  });

  it('holds one copy of a file for a crowd of slow clients, whatever their query strings and ranges', async () => {
    const served = await createServiceApp({ service: 'wardrobe', description: 'docs crowd' });
    let sent = 0;
    served.addHook('onSend', async (request, _reply, payload) => {
      if (request.url.startsWith(bundle)) sent++;
      return payload;
    });
    await served.listen({ port: 0, host: '127.0.0.1' });
    const { port } = served.server.address() as AddressInfo;
    const size = (await getRaw(port, bundle)).body.length;
    const before = process.memoryUsage().rss;
    // The attack seen on a real stack: each socket asks for the bundle under its own query
    // string (or with an open-ended range) and reads nothing.
    const sockets = Array.from({ length: 100 }, (_, i) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      const ask = i % 2 === 0 ? `${bundle} HTTP/1.1\r\nrange: bytes=0-` : `${bundle}?x=${i} HTTP/1.1`;
      socket.write(`GET ${ask}\r\nhost: docs\r\n\r\n`);
      socket.pause();
      return socket;
    });
    try {
      // Every reply is on its way, each to a client that reads nothing.
      await vi.waitFor(() => expect(sent).toBe(101), { timeout: 20_000 });
      // A copy per reply: the process grew 52-124 MB (the kernel's socket buffers took the rest);
      // one shared copy: 3-9 MB.
      expect(process.memoryUsage().rss - before).toBeLessThan(20 * size);
    } finally {
      for (const socket of sockets) socket.destroy();
      await served.close();
    }
  });

  it('reads a file once for a crowd of first visitors, whatever their query strings, spellings and ranges', async () => {
    const { served, port } = await listening('docs first visit');
    const counter = countBundleReads();
    try {
      const spellings = [
        '/docs/static/%73wagger-ui-bundle.js',
        '/docs/static/./swagger-ui-bundle.js',
        '/docs/json/../static/swagger-ui-bundle.js',
        '/docs//static/swagger-ui-bundle.js?v=1',
      ];
      const [plain, queried, ranged, spelled] = await Promise.all([
        Promise.all(Array.from({ length: 20 }, () => getRaw(port, bundle))),
        Promise.all(Array.from({ length: 20 }, (_, i) => getRaw(port, `${bundle}?x=${i}`))),
        Promise.all(Array.from({ length: 20 }, (_, i) => getRaw(port, bundle, { range: `bytes=${i}-` }))),
        Promise.all(spellings.map((path) => getRaw(port, path))),
      ]);
      expect(counter.reads()).toBe(1);
      const file = plain[0]?.body ?? Buffer.alloc(0);
      expect(file.length).toBeGreaterThan(1_000_000);
      for (const res of [...plain, ...queried, ...spelled]) {
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/javascript/);
        expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
        expect(res.body.equals(file)).toBe(true);
      }
      ranged.forEach((res, i) => {
        expect(res.status).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes ${i}-${file.length - 1}/${file.length}`);
        expect(res.headers['content-type']).toMatch(/javascript/);
        expect(res.body.equals(file.subarray(i))).toBe(true);
      });
    } finally {
      counter.restore();
      await served.close();
    }
  });

  it('answers conditional and range requests from the kept file without reading it again', async () => {
    const { served, port } = await listening('docs conditions');
    const counter = countBundleReads();
    try {
      const full = await getRaw(port, bundle);
      const file = full.body;
      const etag = String(full.headers.etag);
      const lastModified = String(full.headers['last-modified']);
      const statusOf = async (path: string, headers: Record<string, string>, method = 'GET') => {
        const res = await getRaw(port, path, headers, method);
        return { status: res.status, length: res.body.length, range: res.headers['content-range'] };
      };
      expect(await statusOf(`${bundle}?a`, { 'if-none-match': etag })).toEqual({ status: 304, length: 0 });
      expect(await statusOf(bundle, { 'if-none-match': `"other", ${etag}` })).toMatchObject({ status: 304 });
      expect(await statusOf(bundle, { 'if-none-match': '"other"' })).toMatchObject({
        status: 200,
        length: file.length,
      });
      expect(await statusOf(bundle, { 'if-modified-since': lastModified })).toMatchObject({
        status: 304,
        length: 0,
      });
      expect(await statusOf(bundle, { 'if-none-match': etag, 'cache-control': 'no-cache' })).toMatchObject({
        status: 200,
        length: file.length,
      });
      expect(await statusOf(bundle, { 'if-match': '"other"' })).toMatchObject({ status: 412, length: 0 });
      expect(await statusOf(bundle, { 'if-match': etag.replace(/^W\//, '') })).toMatchObject({ status: 200 });
      expect(await statusOf(bundle, { range: 'bytes=-100' })).toEqual({
        status: 206,
        length: 100,
        range: `bytes ${file.length - 100}-${file.length - 1}/${file.length}`,
      });
      expect(await statusOf(bundle, { range: 'bytes=10-19' }, 'HEAD')).toEqual({
        status: 206,
        length: 0,
        range: `bytes 10-19/${file.length}`,
      });
      expect(await statusOf(bundle, { range: 'bytes=999999999-' })).toEqual({
        status: 416,
        length: 0,
        range: `bytes */${file.length}`,
      });
      expect(await statusOf(bundle, { range: 'bytes=0-1,5-6' })).toMatchObject({
        status: 200,
        length: file.length,
      });
      expect(await statusOf(bundle, { range: 'bytes=0-9', 'if-range': '"stale"' })).toMatchObject({
        status: 200,
        length: file.length,
      });
      expect(await statusOf(bundle, { range: 'bytes=0-9', 'if-range': etag })).toMatchObject({
        status: 206,
        length: 10,
      });
      const slice = await getRaw(port, `${bundle}?b`, { range: 'bytes=100-199' });
      expect(slice.body.equals(file.subarray(100, 200))).toBe(true);
      expect(counter.reads()).toBe(1);
    } finally {
      counter.restore();
      await served.close();
    }
  });

  it('answers a name outside the page, however escaped, with the 404 envelope', async () => {
    const { served, port } = await listening('docs names');
    try {
      for (const path of [
        '/docs/static/%2e%2e/%2e%2e/package.json',
        '/docs/static/..%2f..%2fpackage.json',
        '/docs/../../package.json',
        '/docs/static/swagger-ui.css%00',
        '/docs/%5c',
      ]) {
        const res = await getRaw(port, path);
        expect(res.status).toBe(404);
        expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'NOT_FOUND' });
      }
    } finally {
      await served.close();
    }
  });

  it('answers a path the page does not have with the error envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/static/nope.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});
