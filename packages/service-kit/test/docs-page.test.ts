// /docs is built on its first visit (docs-page.ts): it must answer as the plugin did when it was
// registered at boot, with this app's 404 envelope for paths the page does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('answers a path the page does not have with the error envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/static/nope.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});
