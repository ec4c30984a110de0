import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_JWT_SECRET } from '../src/config.ts';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let app: GatewayApp;
beforeAll(async () => {
  app = await buildGateway();
});
afterAll(() => app.close());

const secret = new TextEncoder().encode(DEV_JWT_SECRET);
const claims = { iss: 'household-styling-gateway', aud: 'household-styling-api' };

describe('dev login', () => {
  it('issues a bearer token and a stable user id for the same idToken', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { idToken: 'alice' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    const a = await login(app, 'alice');
    const b = await login(app, 'alice@dev.local');
    expect(a.userId).toMatch(/^usr_/);
    expect(b.userId).toBe(a.userId);
    const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(a.token) });
    expect(me.json()).toEqual({ userId: a.userId, email: 'alice@dev.local' });
  });

  it('keeps an email idToken as the email', async () => {
    const { token } = await login(app, 'Bob@Example.com');
    const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
    expect(me.json().email).toBe('bob@example.com');
  });

  it('refuses an empty idToken with field details', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { idToken: '' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ loc: ['body', 'idToken'], type: expect.any(String), msg: expect.any(String) }],
    });
  });

  it('refuses an idToken over 256 characters in dev mode', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { idToken: 'x'.repeat(257) },
    });
    // As an empty idToken: the body breaks a bound (422 naming the field), no sign-in was tried.
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ loc: ['body', 'idToken'], type: 'too_big' }],
    });
  });

  it.each([
    ['spaces', '   '],
    ['a tab and a newline', '\t\n'],
  ])(
    'refuses a blank idToken (%s) in dev mode instead of one shared "@dev.local" user',
    async (_label, idToken) => {
      const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { idToken } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'UNAUTHORIZED', message: 'Development idToken must not be blank' });
    },
  );
});

describe('bearer tokens', () => {
  const me = (authorization?: string) =>
    app.inject({ method: 'GET', url: '/api/v1/me', headers: authorization ? { authorization } : {} });

  it.each([
    ['missing', undefined],
    ['malformed', 'Bearer not-a-jwt'],
    ['not bearer', 'Basic YWxpY2U6cHc='],
  ])('answers 401 for a %s token', async (_name, header) => {
    const res = await me(header);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('answers 401 for a token signed with another key', async () => {
    const token = await new SignJWT({ email: 'x@y.z' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('usr_x')
      .setIssuer(claims.iss)
      .setAudience(claims.aud)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
  });

  it('answers 401 for alg none', async () => {
    const token = new UnsecuredJWT({ email: 'x@y.z' })
      .setSubject('usr_x')
      .setIssuer(claims.iss)
      .setAudience(claims.aud)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
  });

  it('answers 401 for an expired token and for one without exp', async () => {
    const base = () =>
      new SignJWT({ email: 'x@y.z' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('usr_x')
        .setIssuer(claims.iss)
        .setAudience(claims.aud)
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200);
    const expired = await base()
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const noExp = await base().sign(secret);
    expect((await me(`Bearer ${expired}`)).json()).toEqual({
      error: 'UNAUTHORIZED',
      message: 'Access token has expired',
    });
    expect((await me(`Bearer ${noExp}`)).statusCode).toBe(401);
  });

  it('refuses a token issued in the future or living longer than AUTH_TOKEN_TTL_SECONDS', async () => {
    const now = Math.floor(Date.now() / 1000);
    const signed = (iat: number, exp: number) =>
      new SignJWT({ email: 'x@y.z' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('usr_x')
        .setIssuer(claims.iss)
        .setAudience(claims.aud)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(secret);
    const future = await signed(now + 600, now + 1200);
    expect((await me(`Bearer ${future}`)).json()).toEqual({
      error: 'UNAUTHORIZED',
      message: 'Access token is not valid yet',
    });
    // The default lifetime is 3600 s: a year-long token was never issued by this gateway.
    const longLived = await signed(now - 10, now + 365 * 86_400);
    expect((await me(`Bearer ${longLived}`)).json()).toEqual({
      error: 'UNAUTHORIZED',
      message: 'Access token lives longer than this gateway issues them',
    });
    const ordinary = await signed(now - 10, now + 3590);
    expect((await me(`Bearer ${ordinary}`)).statusCode).toBe(200);
  });

  it('accepts only HS256: the same secret under HS384/HS512 is refused', async () => {
    for (const alg of ['HS384', 'HS512']) {
      const token = await new SignJWT({ email: 'x@y.z' })
        .setProtectedHeader({ alg })
        .setSubject('usr_x')
        .setIssuer(claims.iss)
        .setAudience(claims.aud)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(secret);
      expect((await me(`Bearer ${token}`)).json()).toEqual({
        error: 'UNAUTHORIZED',
        message: 'Invalid access token',
      });
    }
  });

  it('refuses a voice session token, another issuer, and a token without subject', async () => {
    const sign = (build: (jwt: SignJWT) => SignJWT) =>
      build(
        new SignJWT({ email: 'x@y.z' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime('1h'),
      ).sign(secret);
    const voice = await sign((j) => j.setSubject('usr_x').setIssuer(claims.iss).setAudience('voice'));
    const issuer = await sign((j) => j.setSubject('usr_x').setIssuer('someone').setAudience(claims.aud));
    const noSub = await sign((j) => j.setIssuer(claims.iss).setAudience(claims.aud));
    for (const token of [voice, issuer, noSub]) expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
  });

  it('reads the Bearer scheme case-insensitively (RFC 9110) and nothing else', async () => {
    const { token } = await login(app, 'scheme@x.test');
    expect((await me(`bearer ${token}`)).statusCode).toBe(200);
    expect((await me(`BEARER ${token}`)).statusCode).toBe(200);
    expect((await me(`Bearer ${token} extra`)).statusCode).toBe(401);
    expect((await me(`Bearer ${token}.x`)).statusCode).toBe(401);
  });

  it('answers 401 for a token of another audience', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('usr_x')
      .setIssuer(claims.iss)
      .setAudience('someone-else')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
  });
});

describe('envelope for framework errors', () => {
  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"idToken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'BAD_REQUEST', message: 'Body is not valid JSON' });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'alice',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an oversized body with 413', async () => {
    const small = await buildGateway({ BODY_LIMIT_BYTES: '100' });
    const res = await small.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { idToken: 'x'.repeat(200) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' });
    await small.close();
  });

  it('answers an unknown route with 404 NOT_FOUND and echoes the request id', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/nothing-here',
      headers: { 'x-request-id': 'req-123' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Route GET /api/v1/nothing-here not found' });
    expect(res.headers['x-request-id']).toBe('req-123');
  });

  it('serves health, readiness and an OpenAPI 3.1 document', async () => {
    expect((await app.inject('/health')).json()).toEqual({
      status: 'ok',
      service: 'gateway',
      version: '1.0.0',
    });
    // The peers it cannot work without are down here: not ready, and it says which.
    const ready = await app.inject('/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'not_ready',
      service: 'gateway',
      checks: { store: true, orchestrator: false, wardrobe: false, commerce: false },
    });
    const doc = (await app.inject('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth/login', '/api/v1/households/{id}/members']),
    );
  });
});
