import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { registerInternalAuth, requireCaller } from '../src/internal-auth.ts';

const TOKEN = 'internal-token-for-tests-0123456789';

async function build(options: { required?: boolean } = {}) {
  const app = await createServiceApp({ service: 'wardrobe', description: 'test' });
  registerInternalAuth(app, { token: TOKEN, ...options });
  app.get('/api/v1/whoami', async (request) => ({ caller: request.caller }));
  app.get('/api/v1/mine', async (request) => requireCaller(request));
  app.get('/api/v1/signed', { config: { public: true } }, async (request) => ({ caller: request.caller }));
  app.post(
    '/api/v1/guarded',
    { config: { roles: ['PARENT_GUARDIAN'], rolesMessage: 'Guardians only' } },
    async () => ({ ok: true }),
  );
  await app.ready();
  return app;
}

let app: ServiceApp;
beforeAll(async () => {
  app = await build();
});
afterAll(() => app.close());

const forged = { 'x-user-id': 'usr_forged', 'x-member-role': 'PARENT_GUARDIAN', 'x-user-email': 'f@x.test' };

describe('registerInternalAuth', () => {
  it.each([
    ['missing', {}],
    ['wrong', { 'x-internal-token': 'nope' }],
    ['empty', { 'x-internal-token': '' }],
    ['prefix of the right one', { 'x-internal-token': TOKEN.slice(0, -1) }],
  ])(
    'refuses a %s token with the 403 envelope, whatever identity headers come with it',
    async (_n, headers) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/whoami',
        headers: { ...headers, ...forged },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
    },
  );

  it('trusts the identity headers with the right token', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/whoami',
      headers: { 'x-internal-token': TOKEN, ...forged },
    });
    expect(res.json()).toEqual({
      caller: { userId: 'usr_forged', role: 'PARENT_GUARDIAN', email: 'f@x.test' },
    });
    const noRole = await app.inject({
      method: 'GET',
      url: '/api/v1/whoami',
      headers: { 'x-internal-token': TOKEN, 'x-user-id': 'usr_1', 'x-member-role': 'KING' },
    });
    expect(noRole.json()).toEqual({ caller: { userId: 'usr_1', role: null, email: null } });
  });

  it('refuses a member whose role the route does not allow before reading the body; a service call passes', async () => {
    const post = (headers: Record<string, string>, payload: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/guarded',
        headers: { 'x-internal-token': TOKEN, 'content-type': 'application/json', ...headers },
        payload,
      });
    const child = await post({ 'x-user-id': 'usr_kid', 'x-member-role': 'CHILD' }, '{"broken');
    expect(child.statusCode).toBe(403);
    expect(child.json()).toEqual({ error: 'FORBIDDEN', message: 'Guardians only' });
    const guardian = await post({ 'x-user-id': 'usr_g', 'x-member-role': 'PARENT_GUARDIAN' }, '{}');
    expect(guardian.json()).toEqual({ ok: true });
    expect((await post({}, '{}')).json()).toEqual({ ok: true });
  });

  it('answers 401 on a user route called without an identity', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/mine',
      headers: { 'x-internal-token': TOKEN },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'UNAUTHORIZED', message: 'Caller identity is missing' });
  });

  it('lets public routes, /health and unknown routes through, never trusting identity headers there', async () => {
    const signed = await app.inject({ method: 'GET', url: '/api/v1/signed', headers: forged });
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toEqual({ caller: null });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/unknown' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('NOT_FOUND');
  });

  it('ignores identity headers without a valid token even where the token is optional', async () => {
    const optional = await build({ required: false });
    const res = await optional.inject({ method: 'GET', url: '/api/v1/whoami', headers: forged });
    expect(res.json()).toEqual({ caller: null });
    await optional.close();
  });

  it('checks the token on an absolute-form request line too (GET http://host/api/v1/...)', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const head = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(
          `GET http://127.0.0.1:${port}/api/v1/whoami HTTP/1.1\r\nhost: x\r\nx-user-id: usr_forged\r\nconnection: close\r\n\r\n`,
        ),
      );
      let out = '';
      socket.on('data', (d) => {
        out += d;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(out));
    });
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(head).not.toContain('usr_forged');
  });
});
