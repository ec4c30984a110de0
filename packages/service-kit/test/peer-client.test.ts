import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/errors.ts';
import { createPeerClient, MAX_PEER_REPLY_BYTES } from '../src/peer-client.ts';

const peer = Fastify();
let baseUrl = '';
const seen: Record<string, unknown>[] = [];

beforeAll(async () => {
  peer.get('/ok', async (req) => {
    seen.push({ ...req.headers });
    return { value: 42 };
  });
  peer.get('/wrong-shape', async () => ({ value: 'forty-two' }));
  peer.get('/missing', async (_req, reply) =>
    reply.code(404).send({ error: 'NOT_FOUND', message: 'Offer not found' }),
  );
  peer.get('/boom', async (_req, reply) =>
    reply.code(500).send({ error: 'INTERNAL_ERROR', message: 'secret stack' }),
  );
  peer.get('/redirect', async (_req, reply) =>
    reply.code(302).header('location', 'http://127.0.0.1:9/').send({}),
  );
  peer.get('/huge', async (_req, reply) => reply.send({ blob: 'x'.repeat(9 * 1024 * 1024) }));
  peer.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 1000));
    return { value: 1 };
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const address = peer.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => peer.close());

// 200 ms only where the timeout is the point: the file's first call also loads undici.
const client = (timeoutMs = 5000) =>
  createPeerClient({ service: 'commerce', baseUrl, token: 'peer-token', timeoutMs });
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const e = err as AppError;
  return { code: e.code, status: e.status, message: e.message };
};

describe('peer client', () => {
  it('sends the peer token, the request id and the caller, and validates the reply', async () => {
    const res = await client().call({
      method: 'GET',
      path: '/ok',
      requestId: 'req-9',
      caller: { userId: 'usr_1', role: 'ADULT', email: 'a@b.c' },
      schema: z.object({ value: z.number() }),
    });
    expect(res.body.value).toBe(42);
    expect(seen.at(-1)).toMatchObject({
      'x-internal-token': 'peer-token',
      'x-request-id': 'req-9',
      'x-user-id': 'usr_1',
      'x-member-role': 'ADULT',
    });
  });

  it('passes a peer 4xx on in its own envelope', async () => {
    expect(await failure(client().call({ method: 'GET', path: '/missing' }))).toEqual({
      code: 'NOT_FOUND',
      status: 404,
      message: 'Offer not found',
    });
  });

  it('turns a peer 5xx, a contract mismatch, a dead peer and a slow peer into 502/504', async () => {
    expect(await failure(client().call({ method: 'GET', path: '/boom' }))).toMatchObject({
      code: 'UPSTREAM_ERROR',
      status: 502,
    });
    expect(
      await failure(
        client().call({ method: 'GET', path: '/wrong-shape', schema: z.object({ value: z.number() }) }),
      ),
    ).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502 });
    const dead = createPeerClient({
      service: 'vto',
      baseUrl: 'http://127.0.0.1:9',
      token: 't',
      timeoutMs: 500,
    });
    expect(await failure(dead.call({ method: 'GET', path: '/x' }))).toEqual({
      code: 'UPSTREAM_ERROR',
      status: 502,
      message: 'vto is unreachable',
    });
    const started = Date.now();
    expect(await failure(client(200).call({ method: 'GET', path: '/slow' }))).toEqual({
      code: 'UPSTREAM_TIMEOUT',
      status: 504,
      message: 'commerce did not answer within 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('peer answers that are not results', () => {
  it('is 502 for a redirect, which is never followed', async () => {
    expect(await failure(client().call({ method: 'GET', path: '/redirect' }))).toEqual({
      code: 'UPSTREAM_ERROR',
      status: 502,
      message: 'commerce answered 302 instead of a result',
    });
  });

  it('reads a larger reply where the call allows it (a whole mission)', async () => {
    const res = await client().call({ method: 'GET', path: '/huge', maxReplyBytes: 16 * 1024 * 1024 });
    expect(res.status).toBe(200);
  });

  it('is 502 for a reply over 8 MiB, refused as it arrives', async () => {
    expect(await failure(client().call({ method: 'GET', path: '/huge' }))).toEqual({
      code: 'UPSTREAM_ERROR',
      status: 502,
      message: `commerce answered with a body over ${MAX_PEER_REPLY_BYTES} bytes`,
    });
  });
});
