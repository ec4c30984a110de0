// /docs is built on its first visit (docs-page.ts): it must answer as the plugin did when it was
// registered at boot, with this app's 404 envelope for paths the page does not have.

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;

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

  it('holds one copy of a file for a crowd of clients that are slow to read it', async () => {
    const served = await createServiceApp({ service: 'wardrobe', description: 'docs crowd' });
    const url = '/docs/static/swagger-ui-bundle.js';
    let sent = 0;
    served.addHook('onSend', async (request, _reply, payload) => {
      if (request.url === url) sent++;
      return payload;
    });
    await served.listen({ port: 0, host: '127.0.0.1' });
    const { port } = served.server.address() as AddressInfo;
    const size = (await (await fetch(`http://127.0.0.1:${port}${url}`)).arrayBuffer()).byteLength;
    const before = process.memoryUsage().rss;
    const sockets = Array.from({ length: 100 }, () => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(`GET ${url} HTTP/1.1\r\nhost: docs\r\n\r\n`);
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

  it('answers a path the page does not have with the error envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/static/nope.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});
