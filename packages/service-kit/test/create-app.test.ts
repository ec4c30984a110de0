import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { conflict } from '../src/errors.ts';

// Every log line the app writes, parsed.
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let app: ServiceApp;
beforeAll(async () => {
  app = await createServiceApp({
    service: 'commerce',
    description: 'test',
    logger: pino({ level: 'info' }, sink),
    bodyLimit: 1024,
  });
  app.post(
    '/api/v1/things',
    {
      schema: {
        body: z.object({
          name: z.string().min(1),
          sizes: z.array(z.object({ label: z.string() })).optional(),
        }),
      },
    },
    async (request) => ({ got: request.body.name }),
  );
  app.get(
    '/api/v1/things/:thingId',
    {
      schema: {
        params: z.object({ thingId: z.string().regex(/^t_/) }),
        querystring: z.object({ n: z.coerce.number().int() }),
      },
    },
    async () => ({ ok: true }),
  );
  app.post(
    '/api/v1/strict',
    { config: { validationStatus: 400 }, schema: { body: z.object({ eventType: z.enum(['A', 'B']) }) } },
    async () => ({ ok: true }),
  );
  app.get('/api/v1/boom', async () => {
    throw new Error('secret database password in /srv/db.sqlite');
  });
  app.get('/api/v1/conflict', async () => {
    throw conflict('Already there');
  });
  app.get(
    '/api/v1/bad-reply',
    { schema: { response: { 200: z.object({ id: z.string() }) } } },
    async () => ({ id: 42, password: 'hunter2' }) as never,
  );
  app.get('/api/v1/limited', async (_request, reply) => {
    // What @fastify/rate-limit does: headers on the reply, then an error with statusCode 429.
    reply.header('retry-after', '7');
    throw Object.assign(new Error('Rate limit exceeded, retry in 7 seconds'), { statusCode: 429 });
  });
  app.get('/api/v1/teapot', async () => {
    throw Object.assign(new Error('I am a teapot'), { statusCode: 418 });
  });
  await app.ready();
});
afterAll(() => app.close());

const json = { 'content-type': 'application/json' };

describe('error envelope on every Fastify error path', () => {
  it.each([
    [
      'unknown route',
      { method: 'GET' as const, url: '/api/v1/nope?x=1' },
      404,
      { error: 'NOT_FOUND', message: 'Route GET /api/v1/nope not found' },
    ],
    [
      'body over the limit',
      {
        method: 'POST' as const,
        url: '/api/v1/things',
        headers: json,
        payload: JSON.stringify({ name: 'x'.repeat(2000) }),
      },
      413,
      { error: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
    ],
    [
      'text body',
      {
        method: 'POST' as const,
        url: '/api/v1/things',
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      },
      415,
      { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' },
    ],
    [
      'malformed JSON',
      { method: 'POST' as const, url: '/api/v1/things', headers: json, payload: '{"name":' },
      400,
      { error: 'BAD_REQUEST', message: 'Body is not valid JSON' },
    ],
    [
      // Valid JSON the prototype-poisoning guard refuses: the message says why, not "not JSON".
      'a __proto__ key',
      {
        method: 'POST' as const,
        url: '/api/v1/things',
        headers: json,
        payload: '{"name":"x","__proto__":{"admin":true}}',
      },
      400,
      { error: 'BAD_REQUEST', message: 'JSON must not use "__proto__" or "constructor.prototype" as keys' },
    ],
    [
      'a constructor.prototype key',
      {
        method: 'POST' as const,
        url: '/api/v1/things',
        headers: json,
        payload: '{"name":"x","constructor":{"prototype":{"admin":true}}}',
      },
      400,
      { error: 'BAD_REQUEST', message: 'JSON must not use "__proto__" or "constructor.prototype" as keys' },
    ],
    [
      // An empty JSON body is "no body": the route's schema then refuses it with details.
      'empty JSON body on a route that needs one',
      { method: 'POST' as const, url: '/api/v1/things', headers: json, payload: '' },
      422,
      {
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [{ loc: ['body'], msg: expect.any(String), type: expect.any(String) }],
      },
    ],
    [
      'thrown AppError',
      { method: 'GET' as const, url: '/api/v1/conflict' },
      409,
      { error: 'CONFLICT', message: 'Already there' },
    ],
    [
      'unexpected exception',
      { method: 'GET' as const, url: '/api/v1/boom' },
      500,
      { error: 'INTERNAL_ERROR', message: 'Internal server error' },
    ],
    [
      'reply that breaks its schema',
      { method: 'GET' as const, url: '/api/v1/bad-reply' },
      500,
      { error: 'INTERNAL_ERROR', message: 'Internal server error' },
    ],
    [
      'rate limit',
      { method: 'GET' as const, url: '/api/v1/limited' },
      429,
      { error: 'RATE_LIMITED', message: 'Rate limit exceeded, retry in 7 seconds' },
    ],
    [
      'other client error',
      { method: 'GET' as const, url: '/api/v1/teapot' },
      418,
      { error: 'HTTP_ERROR', message: 'I am a teapot' },
    ],
    [
      'malformed percent-encoding in the URL',
      { method: 'GET' as const, url: '/api/v1/things/%zz?n=1' },
      400,
      { error: 'BAD_REQUEST', message: 'Malformed URL' },
    ],
  ])('%s', async (_name, request, status, body) => {
    const res = await app.inject(request);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(body);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('keeps headers set before the error (Retry-After of a rate limit)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/limited' });
    expect(res.headers['retry-after']).toBe('7');
  });

  it('never leaks the internals of a 500', async () => {
    for (const url of ['/api/v1/boom', '/api/v1/bad-reply']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toMatch(/password|hunter2|sqlite|stack|42/);
    }
  });
});

describe('validation details', () => {
  it('points at the body field, through nested arrays', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/things',
      payload: { name: '', sizes: [{ label: 'M' }, { label: 3 }] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [
        { loc: ['body', 'name'], msg: expect.any(String), type: expect.any(String) },
        { loc: ['body', 'sizes', 1, 'label'], msg: expect.any(String), type: expect.any(String) },
      ],
    });
  });

  it('names the querystring; an impossible id in the path is 404 (path-ids.test.ts)', async () => {
    const params = await app.inject({ method: 'GET', url: '/api/v1/things/x_1?n=1' });
    expect(params.statusCode).toBe(404);
    expect(params.json()).toEqual({ error: 'NOT_FOUND', message: 'Not found' });
    const query = await app.inject({ method: 'GET', url: '/api/v1/things/t_1?n=abc' });
    expect(query.statusCode).toBe(422);
    expect(query.json().details).toEqual([
      { loc: ['querystring', 'n'], msg: expect.any(String), type: expect.any(String) },
    ]);
  });

  it('lets an id longer than 100 characters reach the route (its schema answers, not the router)', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/things/x_${'a'.repeat(150)}?n=1` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Not found' });
  });

  it('a missing body reports the body itself', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/things' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { loc: ['body'], msg: expect.any(String), type: expect.any(String) },
    ]);
  });

  it('honours validationStatus 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/strict', payload: { eventType: 'C' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ loc: ['body', 'eventType'] }],
    });
  });
});

describe('request ids', () => {
  it('keeps a valid incoming id and replaces an invalid one, on success, error and 404', async () => {
    for (const url of ['/health', '/api/v1/boom', '/api/v1/nope', '/api/v1/%zz']) {
      const kept = await app.inject({ method: 'GET', url, headers: { 'x-request-id': 'client-abc.123:x' } });
      expect(kept.headers['x-request-id']).toBe('client-abc.123:x');
      for (const bad of ['has space', 'x'.repeat(129), 'new\u2028line', '<script>']) {
        const replaced = await app.inject({ method: 'GET', url, headers: { 'x-request-id': bad } });
        expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });

  it('writes exactly one log line per request, with its id', async () => {
    for (const url of ['/health', '/api/v1/boom', '/api/v1/nope', '/api/v1/limited', '/api/v1/%zz']) {
      const id = `one-line-${url.replace(/\W/g, '')}`;
      await app.inject({ method: 'GET', url, headers: { 'x-request-id': id } });
      const mine = lines.filter((l) => l.reqId === id && l.msg === 'request');
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ method: 'GET', url, statusCode: expect.any(Number) });
    }
    // The 500 is also logged with its cause (a second line at error level, not a request line).
    const errors = lines.filter((l) => l.reqId === 'one-line-apiv1boom' && l.level === 50);
    expect(errors).toHaveLength(1);
  });
});

describe('CORS', () => {
  it('answers an allowed origin and ignores another; none without CORS_ORIGINS', async () => {
    const withCors = await createServiceApp({
      service: 'commerce',
      description: 'cors',
      corsOrigins: ['https://app.example.com'],
    });
    await withCors.ready();
    const ok = await withCors.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://app.example.com' },
    });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    const preflight = await withCors.inject({
      method: 'OPTIONS',
      url: '/api/v1/anything',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    // A browser sends PUT, PATCH and DELETE only after a preflight that lists them.
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await withCors.inject({
        method: 'OPTIONS',
        url: '/api/v1/households/hh_1/wardrobe/items/w_1',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization,content-type,idempotency-key,if-match',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      expect(res.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID, X-Request-Id',
      );
      expect(res.headers['access-control-max-age']).toBe('600');
    }
    expect(ok.headers['access-control-expose-headers']).toBe(
      'ETag, Retry-After, X-Request-Id, Location, X-Next-Cursor, Link, X-Total-Count, Idempotent-Replayed',
    );
    const other = await withCors.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    await withCors.close();

    const plain = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://app.example.com' },
    });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });
});
