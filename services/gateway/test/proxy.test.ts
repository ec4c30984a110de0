import { EventSource } from 'eventsource';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

// A stand-in wardrobe/orchestrator: records what the gateway forwards.
let peer: FastifyInstance;
let peerUrl = '';
let gateway: GatewayApp;
let gatewayUrl = '';
const received: Array<{ url: string; headers: Record<string, unknown>; body: unknown }> = [];

beforeAll(async () => {
  peer = Fastify();
  peer.addContentTypeParser('image/png', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  peer.all('/api/v1/*', async (req, reply) => {
    received.push({ url: req.url, headers: { ...req.headers }, body: req.body });
    if (req.url.includes('/slow')) await new Promise((r) => setTimeout(r, 1500));
    if (req.url.includes('/missing'))
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Item not found' });
    if (req.url.includes('/stream')) {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('id: 1\nevent: turn.started\ndata: {"n":1}\n\n');
      // Idle for longer than INTERNAL_API_TIMEOUT_SECONDS: the gateway must not cut the stream.
      setTimeout(() => reply.raw.end('id: 2\nevent: turn.completed\ndata: {"n":2}\n\n'), 1500);
      return;
    }
    const size = Buffer.isBuffer(req.body) ? req.body.length : null;
    return reply.code(req.method === 'POST' ? 201 : 200).send({ forwarded: true, size });
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const address = peer.server.address();
  peerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  gateway = await buildGateway({
    WARDROBE_BASE_URL: peerUrl,
    ORCHESTRATOR_BASE_URL: peerUrl,
    COMMERCE_BASE_URL: 'http://127.0.0.1:9',
    INTERNAL_API_TIMEOUT_SECONDS: '1',
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gAddress = gateway.server.address();
  gatewayUrl = `http://127.0.0.1:${typeof gAddress === 'object' && gAddress ? gAddress.port : 0}`;
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

async function household(token: string) {
  return (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: bearer(token),
      payload: { name: 'H' },
    })
  ).json().householdId as string;
}

describe('gateway forwarding', () => {
  it('forwards a member’s call unchanged with the peer token and the caller identity', async () => {
    const user = await login(gateway, 'fwd@x.test');
    const id = await household(user.token);
    const res = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${id}/wardrobe/items?x=1`,
      headers: { ...bearer(user.token), 'x-user-id': 'usr_forged', 'x-request-id': 'rid-1' },
      payload: { category: 'TOP' },
    });
    expect(res.statusCode).toBe(201);
    const last = received.at(-1)!;
    expect(last.url).toBe(`/api/v1/households/${id}/wardrobe/items?x=1`);
    expect(last.headers).toMatchObject({
      'x-internal-token': 'dev-internal-token-wardrobe',
      'x-user-id': user.userId,
      'x-member-role': 'PARENT_GUARDIAN',
      'x-request-id': 'rid-1',
    });
    expect(last.headers.authorization).toBeUndefined();
    expect(last.body).toEqual({ category: 'TOP' });
  });

  it('checks membership before forwarding and passes peer errors through', async () => {
    const owner = await login(gateway, 'owner@x.test');
    const other = await login(gateway, 'other@x.test');
    const id = await household(owner.token);
    const before = received.length;
    const res = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/wardrobe/items`,
      headers: bearer(other.token),
    });
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    expect(received.length).toBe(before);
    const missing = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/wardrobe/items/missing`,
      headers: bearer(owner.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'NOT_FOUND', message: 'Item not found' });
  });

  it('answers 502 for a peer that is down and 504 for one that is too slow', async () => {
    const user = await login(gateway, 'down@x.test');
    const id = await household(user.token);
    const down = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/offers`,
      headers: bearer(user.token),
    });
    expect(down.statusCode).toBe(502);
    expect(down.json()).toEqual({ error: 'UPSTREAM_ERROR', message: 'commerce is unreachable' });
    const slow = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/wardrobe/slow`,
      headers: bearer(user.token),
    });
    expect(slow.statusCode).toBe(504);
    expect(slow.json()).toEqual({
      error: 'UPSTREAM_TIMEOUT',
      message: 'wardrobe did not answer within 1000 ms',
    });
  });

  it('passes raw upload bytes through without a bearer token', async () => {
    const bytes = Buffer.alloc(3000, 7);
    const res = await fetch(`${gatewayUrl}/api/v1/uploads/households/h_1/img_1?sig=abc`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    const body = await res.json();
    expect(body).toEqual({ forwarded: true, size: 3000 });
    expect(res.status).toBe(200);
  });

  it('streams SSE through unbuffered and does not cut an idle stream', async () => {
    const user = await login(gateway, 'sse@x.test');
    const id = await household(user.token);
    const events: string[] = [];
    const es = new EventSource(`${gatewayUrl}/api/v1/households/${id}/orchestrator/missions/m1/stream`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...bearer(user.token) } }),
    });
    const firstAt = await new Promise<number>((resolve) =>
      es.addEventListener('turn.started', () => resolve(Date.now())),
    );
    events.push('turn.started');
    await new Promise<void>((resolve) =>
      es.addEventListener('turn.completed', (e) => {
        events.push(`turn.completed:${e.lastEventId}`);
        resolve();
      }),
    );
    es.close();
    expect(events).toEqual(['turn.started', 'turn.completed:2']);
    // The first event arrived before the peer finished: nothing was buffered.
    expect(Date.now() - firstAt).toBeGreaterThan(1000);
  });
});
