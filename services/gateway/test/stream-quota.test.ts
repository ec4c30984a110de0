// A user holds at most MAX_STREAMS_PER_USER mission streams open on one gateway; one more is
// 429 RATE_LIMITED with Retry-After, a slot comes back when a stream closes, however it ends.
import { createStore, type Store } from '@hs/store';
import { wrapCollection } from '@hs/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { bearer, type GatewayApp, withHousehold } from './gateway-harness.ts';

let orchestrator: FastifyInstance;
let gateway: GatewayApp;
let base: string;
let store: Store;
let config: ReturnType<typeof loadGatewayConfig>;
/** While set, every read of a household waits this long (a slow store under the membership check). */
let householdReadDelayMs = 0;

/** The in-memory store, with household reads slowed on demand. */
const slowableStore = (): Store =>
  wrapCollection(createStore({ backend: 'inmemory' }), 'households', (method, get) =>
    method === 'get'
      ? async (...args) => {
          if (householdReadDelayMs > 0) await new Promise((done) => setTimeout(done, householdReadDelayMs));
          return get(...args);
        }
      : undefined,
  );

beforeAll(async () => {
  orchestrator = Fastify();
  // A stream that stays open (one event, then nothing), or 404 for msn_missing.
  orchestrator.get('/api/v1/households/:id/orchestrator/missions/:mId/stream', async (req, reply) => {
    const { mId } = req.params as { mId: string };
    if (mId === 'msn_missing')
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Mission not found' });
    // A peer that drops the connection: the gateway answers 502 itself.
    if (mId === 'msn_broken') return req.socket.destroy();
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write('id: 1\nevent: turn.started\ndata: {}\n\n');
  });
  await orchestrator.listen({ port: 0, host: '127.0.0.1' });
  config = loadGatewayConfig({
    APP_ENV: 'test',
    MAX_STREAMS_PER_USER: '2',
    ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
    ORCHESTRATOR_BASE_URL: `http://127.0.0.1:${(orchestrator.server.address() as { port: number }).port}`,
  });
  store = slowableStore();
  gateway = await buildApp({ config, store, background: false });
  base = await gateway.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  // This process's own fetch pool keeps connections that never carried a request (Node's
  // bundled undici opens one after a stream it was reading is aborted): they would hold the
  // server's close until its 60 s headers timeout.
  gateway.server.closeAllConnections();
  await gateway.close();
  orchestrator.server.closeAllConnections();
  await orchestrator.close();
});

async function household(email: string) {
  const { householdId, ...user } = await withHousehold(gateway, email);
  return { ...user, id: householdId };
}

const connections = (app: FastifyInstance) =>
  new Promise<number>((resolve, reject) =>
    app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))),
  );

/** Opens the stream and reads its first frame; `close` ends it from the client side. */
async function open(token: string, householdId: string, missionId = 'msn_1') {
  const done = new AbortController();
  const res = await fetch(
    `${base}/api/v1/households/${householdId}/orchestrator/missions/${missionId}/stream`,
    {
      headers: bearer(token),
      signal: done.signal,
    },
  );
  if (res.status === 200) {
    const reader = res.body!.getReader();
    await reader.read();
  }
  return { res, close: () => done.abort() };
}

describe('open streams per user', () => {
  it('refuses one more than the limit with 429 and Retry-After, and frees a slot when a stream closes', async () => {
    const mum = await household('quota-mum@x.test');
    const first = await open(mum.token, mum.id);
    const second = await open(mum.token, mum.id, 'msn_2');
    expect([first.res.status, second.res.status]).toEqual([200, 200]);

    const third = await open(mum.token, mum.id);
    expect(third.res.status).toBe(429);
    expect(third.res.headers.get('retry-after')).toBe('5');
    expect(await third.res.json()).toEqual({
      error: 'RATE_LIMITED',
      message: 'Too many open streams: at most 2 per user at once; close one and retry',
    });

    // Another user is not held back by hers.
    const dad = await household('quota-dad@x.test');
    const his = await open(dad.token, dad.id);
    expect(his.res.status).toBe(200);

    first.close();
    await vi.waitFor(async () => {
      const again = await open(mum.token, mum.id);
      again.close();
      expect(again.res.status).toBe(200);
    });
    second.close();
    his.close();
    // Every stream is gone, and so is every connection the gateway had made to the orchestrator.
    await vi.waitFor(() => expect(connections(orchestrator)).resolves.toBe(0), { timeout: 5000 });
  });

  it('gives the slot back when the stream ends with an error, from the peer or from the gateway', async () => {
    const kid = await household('quota-kid@x.test');
    for (const [missionId, status] of [
      ['msn_missing', 404],
      ['msn_missing', 404],
      ['msn_broken', 502],
      ['msn_broken', 502],
    ] as const) {
      const res = await open(kid.token, kid.id, missionId);
      expect(res.res.status).toBe(status);
      await res.res.arrayBuffer();
    }
    const held = await Promise.all([open(kid.token, kid.id), open(kid.token, kid.id)]);
    expect(held.map((s) => s.res.status)).toEqual([200, 200]);
    for (const s of held) s.close();
  });

  it('takes no slot for a client that left while its membership was being checked', async () => {
    const teen = await household('quota-teen@x.test');
    householdReadDelayMs = 300;
    try {
      for (let i = 0; i < 3; i++) {
        const gone = fetch(`${base}/api/v1/households/${teen.id}/orchestrator/missions/msn_1/stream`, {
          headers: bearer(teen.token),
          signal: AbortSignal.timeout(50),
        });
        await expect(gone).rejects.toThrow();
      }
      // The three checks finish after their clients left.
      await new Promise((done) => setTimeout(done, 500));
    } finally {
      householdReadDelayMs = 0;
    }
    const held = [await open(teen.token, teen.id), await open(teen.token, teen.id)];
    expect(held.map((s) => s.res.status)).toEqual([200, 200]);
    for (const s of held) s.close();
  });

  it('checks membership before the quota: a stranger is 403, not 429', async () => {
    const owner = await household('quota-owner@x.test');
    const stranger = await household('quota-stranger@x.test');
    const held = [await open(stranger.token, stranger.id), await open(stranger.token, stranger.id)];
    const res = await open(stranger.token, owner.id);
    expect(res.res.status).toBe(403);
    for (const s of held) s.close();
  });
});

describe('streams of a member who leaves', () => {
  /** Opens the stream and reads its first frame; `ended` says how the next read finished. */
  async function follow(token: string, householdId: string) {
    const res = await fetch(`${base}/api/v1/households/${householdId}/orchestrator/missions/msn_1/stream`, {
      headers: bearer(token),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    const ended = reader.read().then(
      (r) => (r.done ? 'done' : 'more'),
      () => 'ended',
    );
    return { ended };
  }
  const addMember = async (owner: { token: string; id: string }, userId: string) =>
    gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${owner.id}/members`,
      headers: bearer(owner.token),
      payload: { memberId: userId, role: 'ADULT' },
    });

  it('ends the stream as soon as the member is removed through this gateway', async () => {
    const owner = await household('leave-owner@x.test');
    const guest = await household('leave-guest@x.test');
    await addMember(owner, guest.userId);
    const { ended } = await follow(guest.token, owner.id);
    const removedAt = Date.now();
    const removed = await gateway.inject({
      method: 'DELETE',
      url: `/api/v1/households/${owner.id}/members/${guest.userId}`,
      headers: bearer(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    expect(await ended).not.toBe('more');
    expect(Date.now() - removedAt).toBeLessThan(1000);
    // Its reconnect is refused.
    expect((await open(guest.token, owner.id)).res.status).toBe(403);
  });

  it('ends it within the membership staleness when another gateway made the change', async () => {
    const replica = await buildApp({ config, store, background: false });
    try {
      const owner = await household('replica-owner@x.test');
      const guest = await household('replica-guest@x.test');
      await addMember(owner, guest.userId);
      const { ended } = await follow(guest.token, owner.id);
      const removed = await replica.inject({
        method: 'DELETE',
        url: `/api/v1/households/${owner.id}/members/${guest.userId}`,
        headers: bearer(owner.token),
      });
      expect(removed.statusCode).toBe(204);
      expect(await ended).not.toBe('more');
    } finally {
      await replica.close();
    }
  });
});
