import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;

beforeAll(async () => {
  app = await createServiceApp({ service: 'wardrobe', description: 'headers' });
  app.get('/api/v1/thing', async () => ({ name: 'thing' }));
  app.post('/api/v1/session', async () => ({ accessToken: 'secret', expiresInSeconds: 60 }));
  app.get('/api/v1/picture', async (_req, reply) =>
    reply.type('image/png').send(Buffer.from([137, 80, 78, 71])),
  );
  await app.ready();
});
afterAll(() => app.close());

describe('security headers', () => {
  it('marks JSON replies: no sniffing, no framing, no referrer, nothing to run, same-origin only', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/thing' });
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(res.headers['cache-control']).toBeUndefined();
    const missing = await app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never lets a reply carrying a token be cached', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/session' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('lets other origins embed images', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/picture' });
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('keeps /docs working: its page and files load under its own policy, with no online validator', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("default-src 'none'");
    expect(policy).not.toContain('validator.swagger.io');
    expect(policy).not.toContain('upgrade-insecure-requests');
    const init = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    const doc = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
  });
});
