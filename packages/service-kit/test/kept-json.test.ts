import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

// A document whose serialization is counted: each JSON.stringify reads `paths` once.
let serializations = 0;
const document = {
  openapi: '3.1.0',
  info: { title: 'public', version: '1' },
  get paths() {
    serializations++;
    return { '/api/v1/things': {} };
  },
};

let app: ServiceApp;
beforeAll(async () => {
  app = await createServiceApp({ service: 'gateway', description: 'test', publicDocument: () => document });
  await app.ready();
});
afterAll(() => app.close());

describe('GET /openapi.json (public, unauthenticated)', () => {
  it('serializes the document once however often it is asked for, so a loop of requests costs no CPU per answer', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.inject('/openapi.json')));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.json()).toEqual({
        openapi: '3.1.0',
        info: { title: 'public', version: '1' },
        paths: { '/api/v1/things': {} },
      });
    }
    expect(serializations).toBe(1);
  });

  it('sends a strong ETag and answers a current copy with 304 and no body', async () => {
    const first = await app.inject('/openapi.json');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await app.inject({ url: '/openapi.json', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const listed = await app.inject({
      url: '/openapi.json',
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(listed.statusCode).toBe(304);
    const stale = await app.inject({ url: '/openapi.json', headers: { 'if-none-match': '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.etag).toBe(etag);
  });
});
