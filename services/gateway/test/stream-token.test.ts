import { Writable } from 'node:stream';
import { createStore } from '@hs/store';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { bearer, type GatewayApp, login } from './gateway-harness.ts';

// A stand-in orchestrator: missions by id, and a stream that records who asked for it.
let orchestrator: FastifyInstance;
let gateway: GatewayApp;
const logLines: string[] = [];
const streamCalls: Array<{ url: string; userId: unknown }> = [];
const missions = new Map<string, { owner_id: string; mission_type: string; household_id: string }>();

beforeAll(async () => {
  orchestrator = Fastify();
  orchestrator.get('/api/v1/households/:id/orchestrator/missions/:mId/access', async (req, reply) => {
    const { id, mId } = req.params as { id: string; mId: string };
    const m = missions.get(mId);
    if (!m || m.household_id !== id)
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Mission not found' });
    return { mission_id: mId, state: 'RUNNING', history: [], plan: [], artifacts: [], ...m };
  });
  orchestrator.get('/api/v1/households/:id/orchestrator/missions/:mId/stream', async (req, reply) => {
    streamCalls.push({ url: req.url, userId: req.headers['x-user-id'] });
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.end('id: 1\nevent: turn.started\ndata: {}\n\n');
  });
  await orchestrator.listen({ port: 0, host: '127.0.0.1' });
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  const config = loadGatewayConfig({
    APP_ENV: 'test',
    ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
    ORCHESTRATOR_BASE_URL: `http://127.0.0.1:${(orchestrator.server.address() as { port: number }).port}`,
  });
  gateway = await buildApp({
    config,
    store: createStore({ backend: 'inmemory' }),
    logger,
    background: false,
  });
  await gateway.ready();
});
afterAll(async () => {
  await gateway.close();
  await orchestrator.close();
});

async function family() {
  const owner = await login(gateway, `owner-${missions.size}@x.test`);
  const other = await login(gateway, `other-${missions.size}@x.test`);
  const h = await gateway.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: bearer(owner.token),
    payload: { name: 'H' },
  });
  const id = h.json().householdId as string;
  const added = await gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${id}/members`,
    headers: bearer(owner.token),
    payload: { memberId: other.userId, role: 'ADULT' },
  });
  expect(added.statusCode).toBe(201);
  const mission = (type: string) => {
    const mId = `msn_${missions.size + 1}`;
    missions.set(mId, { owner_id: owner.userId, mission_type: type, household_id: id });
    return mId;
  };
  return { owner, other, id, mission };
}

const issue = (id: string, mId: string, token: string) =>
  gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${id}/orchestrator/missions/${mId}/stream-token`,
    headers: bearer(token),
  });
const stream = (id: string, mId: string, query: string) =>
  gateway.inject({
    method: 'GET',
    url: `/api/v1/households/${id}/orchestrator/missions/${mId}/stream?${query}`,
  });

describe('stream tokens', () => {
  it('lets the owner open the stream without a bearer; the token never reaches the orchestrator or the logs', async () => {
    const { owner, id, mission } = await family();
    const mId = mission('STYLE');
    const res = await issue(id, mId, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { streamToken, expiresInSeconds } = res.json();
    expect(expiresInSeconds).toBe(300);

    const opened = await stream(id, mId, `streamToken=${streamToken}&after=0`);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream');
    expect(opened.body).toContain('event: turn.started');
    expect(streamCalls.at(-1)).toEqual({
      url: `/api/v1/households/${id}/orchestrator/missions/${mId}/stream?after=0`,
      userId: owner.userId,
    });
    // Usable again for a reconnect until it expires.
    expect((await stream(id, mId, `streamToken=${streamToken}`)).statusCode).toBe(200);
    expect(logLines.some((l) => l.includes('/stream'))).toBe(true);
    expect(logLines.filter((l) => l.includes(streamToken))).toEqual([]);
  });

  it('is refused to another member unless the mission is a POLL', async () => {
    const { other, id, mission } = await family();
    const style = mission('STYLE');
    const refused = await issue(id, style, other.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'FORBIDDEN',
      message: "Only the mission's owner can open its stream (any member, for a POLL mission)",
    });
    const poll = mission('POLL');
    const granted = await issue(id, poll, other.token);
    expect(granted.statusCode).toBe(200);
    expect((await stream(id, poll, `streamToken=${granted.json().streamToken}`)).statusCode).toBe(200);
    expect(streamCalls.at(-1)?.userId).toBe(other.userId);
  });

  it('opens only its own mission, is no bearer token, and stops working for a removed member', async () => {
    const { owner, other, id, mission } = await family();
    const poll = mission('POLL');
    const second = mission('POLL');
    const token = (await issue(id, poll, other.token)).json().streamToken as string;
    const invalid = { error: 'UNAUTHORIZED', message: 'Invalid or expired stream token' };
    const foreign = await stream(id, second, `streamToken=${token}`);
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual(invalid);
    expect((await stream(id, poll, `streamToken=${owner.token}`)).json()).toEqual(invalid);
    expect((await stream(id, poll, 'streamToken=garbage')).statusCode).toBe(401);
    expect((await stream(id, poll, '')).statusCode).toBe(401);
    // A stream token is not a bearer token anywhere else.
    const me = await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);

    const removed = await gateway.inject({
      method: 'DELETE',
      url: `/api/v1/households/${id}/members/${other.userId}`,
      headers: bearer(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    const gone = await stream(id, poll, `streamToken=${token}`);
    expect(gone.statusCode).toBe(403);
  });

  it('still accepts the bearer token, and 404s a mission of another household', async () => {
    const { owner, id, mission } = await family();
    const mId = mission('STYLE');
    const res = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/orchestrator/missions/${mId}/stream`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode).toBe(200);
    const elsewhere = await family();
    expect((await issue(elsewhere.id, mId, elsewhere.owner.token)).statusCode).toBe(404);
  });
});
