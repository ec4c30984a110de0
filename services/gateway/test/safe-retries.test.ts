import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

// A stand-in wardrobe/orchestrator that counts the writes that reach it.
let peer: FastifyInstance;
let gateway: GatewayApp;
const writes: Array<{ url: string; body: unknown; timeout: unknown; role?: unknown }> = [];
const failedOnce = new Set<string>();
/** What the orchestrator answers a streamed retry of a turn it answered. */
const STREAMED_REPLAY =
  "This Idempotency-Key's streamed turn already ran; read its events from the mission's stream";

beforeAll(async () => {
  // As the services route: `/chat/` is the chat.
  peer = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  let n = 0;
  peer.post('/api/v1/households/:id/wardrobe/items', async (req, reply) => {
    writes.push({
      url: req.url,
      body: req.body,
      timeout: req.headers['x-request-timeout-ms'],
      role: req.headers['x-member-role'],
    });
    const body = req.body as { category?: string };
    if (body.category === 'BAD')
      return reply.code(422).send({ error: 'VALIDATION_ERROR', message: 'Request validation failed' });
    n++;
    return reply
      .code(201)
      .header('etag', `"v${n}"`)
      .header('location', `/items/w_${n}`)
      .send({ itemId: `w_${n}`, ...body });
  });
  // As the orchestrator keys a message: a turn answered under a key is not run again (409 for a
  // streamed retry); one that failed is run again on the retry.
  const answered = new Set<string>();
  peer.post('/api/v1/households/:id/orchestrator/missions/:mId/chat', async (req, reply) => {
    const given = req.headers['idempotency-key'];
    const key = given ? `${(req.params as { id: string }).id} ${given}` : '';
    if (key && answered.has(key))
      return reply.code(409).send({ error: 'CONFLICT', message: STREAMED_REPLAY });
    writes.push({ url: req.url, body: req.body, timeout: req.headers['x-request-timeout-ms'] });
    const fails = (req.body as { message?: string }).message === 'fail once' && !failedOnce.has(key);
    if (fails) failedOnce.add(key);
    else if (key) answered.add(key);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.end(`id: 1\nevent: ${fails ? 'turn.failed' : 'turn.completed'}\ndata: {}\n\n`);
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(peer.server.address() as { port: number }).port}`;
  gateway = await buildGateway({
    WARDROBE_BASE_URL: url,
    ORCHESTRATOR_BASE_URL: url,
    INTERNAL_API_TIMEOUT_SECONDS: '3',
  });
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

async function family() {
  const user = await login(gateway, `retry-${writes.length}-${Math.random()}@x.test`);
  const h = await gateway.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: bearer(user.token),
    payload: { name: 'H' },
  });
  return { user, id: h.json().householdId as string };
}

const addItem = (token: string, id: string, payload: object, key?: string) =>
  gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${id}/wardrobe/items`,
    headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

describe('Idempotency-Key on forwarded creates', () => {
  it('a retry after the caller’s role changed goes to the service again, which judges the new role', async () => {
    const { user, id } = await family();
    const adult = await login(gateway, `retry-adult-${Math.random()}@x.test`);
    const added = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${id}/members`,
      headers: bearer(user.token),
      payload: { memberId: adult.userId, role: 'ADULT' },
    });
    expect(added.statusCode).toBe(201);
    const first = await addItem(adult.token, id, { category: 'TOP' }, 'k-role');
    expect(first.statusCode).toBe(201);
    const setRole = (role: string) =>
      gateway.inject({
        method: 'PATCH',
        url: `/api/v1/households/${id}/members/${adult.userId}`,
        headers: bearer(user.token),
        payload: { role },
      });
    // Promoted, they may do as much as before: the first answer stands (nothing runs again).
    expect((await setRole('PARENT_GUARDIAN')).statusCode).toBe(200);
    const writesBefore = writes.length;
    const promoted = await addItem(adult.token, id, { category: 'TOP' }, 'k-role');
    expect(promoted.headers['idempotent-replayed']).toBe('true');
    expect(writes.length).toBe(writesBefore);
    const demoted = await gateway.inject({
      method: 'PATCH',
      url: `/api/v1/households/${id}/members/${adult.userId}`,
      headers: bearer(user.token),
      payload: { role: 'CHILD' },
    });
    expect(demoted.statusCode).toBe(200);
    const before = writes.length;
    // Not replayed on the old role's authority: the service sees the caller as they are now.
    const retry = await addItem(adult.token, id, { category: 'TOP' }, 'k-role');
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(writes.slice(before).map((w) => w.role)).toEqual(['CHILD']);
  });

  it('replays the first success for the same key and body without a second write', async () => {
    const { user, id } = await family();
    const before = writes.length;
    const first = await addItem(user.token, id, { category: 'TOP', colors: ['blue'] }, 'k-1');
    expect(first.statusCode).toBe(201);
    // Same body, keys in another order: the same request.
    const retry = await addItem(user.token, id, { colors: ['blue'], category: 'TOP' }, 'k-1');
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(writes.length - before).toBe(1);
    // Without a key every POST is its own write.
    await addItem(user.token, id, { category: 'TOP' });
    await addItem(user.token, id, { category: 'TOP' });
    expect(writes.length - before).toBe(3);
  });

  it('refuses the same key with another body (422) and never reaches the service', async () => {
    const { user, id } = await family();
    await addItem(user.token, id, { category: 'TOP' }, 'k-2');
    const before = writes.length;
    const other = await addItem(user.token, id, { category: 'SHOES' }, 'k-2');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Idempotency-Key was already used with a different request body',
      details: [
        {
          loc: ['headers', 'idempotency-key'],
          msg: 'was already used with a different request body',
          type: 'idempotency_mismatch',
        },
      ],
    });
    expect(writes.length).toBe(before);
  });

  it('keeps no failure: a refused create frees its key for the corrected retry', async () => {
    const { user, id } = await family();
    const refused = await addItem(user.token, id, { category: 'BAD' }, 'k-3');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: 'VALIDATION_ERROR', message: 'Request validation failed' });
    const fixed = await addItem(user.token, id, { category: 'TOP' }, 'k-3');
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it("scopes keys to the user: another member's same key is another request", async () => {
    const { user, id } = await family();
    const other = await login(gateway, `member-${Math.random()}@x.test`);
    await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${id}/members`,
      headers: bearer(user.token),
      payload: { memberId: other.userId, role: 'ADULT' },
    });
    const a = await addItem(user.token, id, { category: 'TOP' }, 'shared');
    const b = await addItem(other.token, id, { category: 'TOP' }, 'shared');
    expect(b.statusCode).toBe(201);
    expect(b.json().itemId).not.toBe(a.json().itemId);
  });

  it('tells the service how long the gateway will wait', async () => {
    const { user, id } = await family();
    await addItem(user.token, id, { category: 'TOP' });
    expect(writes.at(-1)?.timeout).toBe('3000');
  });

  it.each([
    'chat',
    // The same route as the orchestrator serves it: read as JSON, the turn ran and answered 502.
    'chat/',
    'ch%61t',
  ])('runs a streamed chat turn once; its retry is pointed at the stream (.../%s)', async (chatPath) => {
    const { user, id } = await family();
    const chat = () =>
      gateway.inject({
        method: 'POST',
        url: `/api/v1/households/${id}/orchestrator/missions/msn_1/${chatPath}`,
        headers: { ...bearer(user.token), accept: 'text/event-stream', 'idempotency-key': 'turn-1' },
        payload: { message: 'hello' },
      });
    const before = writes.length;
    const first = await chat();
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('event: turn.completed');
    const retry = await chat();
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toEqual({ error: 'CONFLICT', message: STREAMED_REPLAY });
    expect(writes.length - before).toBe(1);
  });

  it('sends the retry of a streamed turn that failed on to the orchestrator, which runs it again', async () => {
    const { user, id } = await family();
    const chat = () =>
      gateway.inject({
        method: 'POST',
        url: `/api/v1/households/${id}/orchestrator/missions/msn_1/chat`,
        headers: { ...bearer(user.token), accept: 'text/event-stream', 'idempotency-key': 'turn-fails-1' },
        payload: { message: 'fail once' },
      });
    const before = writes.length;
    const first = await chat();
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('event: turn.failed');
    const retry = await chat();
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toContain('event: turn.completed');
    expect(writes.length - before).toBe(2);
    // Answered now: a further retry is pointed at the stream.
    expect((await chat()).statusCode).toBe(409);
  });
});

describe('Idempotency-Key on creating a household', () => {
  it('creates one household for a retried request', async () => {
    const user = await login(gateway, 'household-retry@x.test');
    const create = () =>
      gateway.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: { ...bearer(user.token), 'idempotency-key': 'hh-1' },
        payload: { name: 'Once' },
      });
    const first = await create();
    const retry = await create();
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    // Marked like a forwarded create's replay (README "Safe retries"), the first answer is not.
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const list = await gateway.inject({
      method: 'GET',
      url: '/api/v1/households',
      headers: bearer(user.token),
    });
    expect(list.json()).toHaveLength(1);
  });
});
