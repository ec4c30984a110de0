// POST /api/v1/auth/logout signs the caller out everywhere: every token issued to them so far
// (access, stream, voice) stops working, at once on the gateway that took the sign-out and within
// the membership staleness (2 s) on another replica of the same store; their open streams end;
// signing in again works; nobody else is touched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { bearer, type GatewayApp, login, withHousehold } from './gateway-harness.ts';

let orchestrator: FastifyInstance;
let dir: string;
let stores: Store[];
let gateway: GatewayApp;
let replica: GatewayApp;
let base: string;
let replicaBase: string;

beforeAll(async () => {
  orchestrator = Fastify();
  orchestrator.get('/api/v1/households/:id/orchestrator/missions/:mId/access', async (req) => {
    const { id, mId } = req.params as { id: string; mId: string };
    return {
      mission_id: mId,
      household_id: id,
      owner_id: req.headers['x-user-id'],
      mission_type: 'STYLE',
      state: 'RUNNING',
      history: [],
      plan: [],
      artifacts: [],
    };
  });
  // A stream that stays open after its first event.
  orchestrator.get('/api/v1/households/:id/orchestrator/missions/:mId/stream', async (_req, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write('id: 1\nevent: turn.started\ndata: {}\n\n');
  });
  await orchestrator.listen({ port: 0, host: '127.0.0.1' });
  const config = loadGatewayConfig({
    APP_ENV: 'test',
    ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
    ORCHESTRATOR_BASE_URL: `http://127.0.0.1:${(orchestrator.server.address() as { port: number }).port}`,
  });
  // Two gateway replicas on one database file, as two processes would share it.
  dir = mkdtempSync(join(tmpdir(), 'sign-out-'));
  stores = [0, 1].map(() => createStore({ backend: 'sqlite', file: join(dir, 'gateway.sqlite') }));
  gateway = await buildApp({ config, store: stores[0]!, background: false });
  replica = await buildApp({ config, store: stores[1]!, background: false });
  base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  replicaBase = await replica.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const app of [gateway, replica]) {
    app.server.closeAllConnections();
    await app.close();
  }
  for (const store of stores) await store.close();
  orchestrator.server.closeAllConnections();
  await orchestrator.close();
  rmSync(dir, { recursive: true, force: true });
});

const me = (app: GatewayApp, token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
const logout = (app: GatewayApp, token: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) });

/** Opens a mission stream (bearer or stream token) and reads its first frame. */
async function follow(
  origin: string,
  householdId: string,
  credential: { bearer?: string; streamToken?: string },
) {
  const url = new URL(`${origin}/api/v1/households/${householdId}/orchestrator/missions/msn_1/stream`);
  if (credential.streamToken) url.searchParams.set('streamToken', credential.streamToken);
  const done = new AbortController();
  const res = await fetch(url, {
    headers: credential.bearer ? bearer(credential.bearer) : {},
    signal: done.signal,
  });
  if (res.status !== 200) return { res, ended: Promise.resolve('refused'), close: () => done.abort() };
  const reader = res.body!.getReader();
  await reader.read();
  const ended = reader.read().then(
    (chunk) => (chunk.done ? 'ended' : 'more'),
    () => 'ended',
  );
  return { res, ended, close: () => done.abort() };
}

describe('signing out everywhere', () => {
  it('refuses every token issued before it, keeps it refused after signing in again, and leaves others alone', async () => {
    const phone = await login(gateway, 'lost-phone@family.test');
    const laptop = await login(gateway, 'lost-phone@family.test');
    const sister = await login(gateway, 'sister@family.test');

    const out = await logout(gateway, laptop.token);
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');

    for (const token of [phone.token, laptop.token]) {
      const refused = await me(gateway, token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ error: 'UNAUTHORIZED', message: 'Signed out: sign in again' });
    }
    // Signing in again gives a token that works; the old ones stay refused.
    const again = await login(gateway, 'lost-phone@family.test');
    expect((await me(gateway, again.token)).json()).toEqual({
      userId: phone.userId,
      email: 'lost-phone@family.test',
    });
    expect((await me(gateway, phone.token)).statusCode).toBe(401);
    // A second sign-out with a signed-out token is refused; with the new one it works.
    expect((await logout(gateway, phone.token)).statusCode).toBe(401);
    expect((await me(gateway, sister.token)).statusCode).toBe(200);
    expect((await logout(gateway, again.token)).statusCode).toBe(204);
    expect((await me(gateway, again.token)).statusCode).toBe(401);
    expect((await me(gateway, sister.token)).statusCode).toBe(200);
  });

  it('needs a valid bearer token', async () => {
    const res = await gateway.inject({ method: 'POST', url: '/api/v1/auth/logout' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('UNAUTHORIZED');
  });

  it('ends the open streams of the user at once and refuses their stream tokens', async () => {
    const mum = await withHousehold(gateway, 'stream-mum@family.test');
    const issued = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${mum.householdId}/orchestrator/missions/msn_1/stream-token`,
      headers: bearer(mum.token),
    });
    expect(issued.statusCode).toBe(200);
    const { streamToken } = issued.json();
    const byBearer = await follow(base, mum.householdId, { bearer: mum.token });
    const byToken = await follow(base, mum.householdId, { streamToken });
    expect([byBearer.res.status, byToken.res.status]).toEqual([200, 200]);

    expect((await logout(gateway, mum.token)).statusCode).toBe(204);
    expect(await byBearer.ended).toBe('ended');
    expect(await byToken.ended).toBe('ended');
    const reopened = await follow(base, mum.householdId, { streamToken });
    expect(reopened.res.status).toBe(401);
    expect(await reopened.res.json()).toEqual({
      error: 'UNAUTHORIZED',
      message: 'Invalid or expired stream token',
    });
  });

  it('opens a stream without Node warning of a listener leak (its responses carry a fixed 11 close listeners)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const mum = await withHousehold(gateway, 'listeners@family.test');
      const open = await follow(base, mum.householdId, { bearer: mum.token });
      expect(open.res.status).toBe(200);
      open.close();
      await new Promise((done) => setTimeout(done, 50));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('reaches another replica within the 2 s staleness: its requests and open streams', async () => {
    const dad = await withHousehold(gateway, 'replica-dad@family.test');
    // The replica has served (and so remembers) the token and the user before the sign-out.
    expect((await me(replica, dad.token)).statusCode).toBe(200);
    const open = await follow(replicaBase, dad.householdId, { bearer: dad.token });
    expect(open.res.status).toBe(200);

    const at = Date.now();
    expect((await logout(gateway, dad.token)).statusCode).toBe(204);
    await vi.waitFor(async () => expect((await me(replica, dad.token)).statusCode).toBe(401), {
      timeout: 4000,
      interval: 100,
    });
    expect(Date.now() - at).toBeLessThan(3000);
    expect(await open.ended).toBe('ended');
    expect(Date.now() - at).toBeLessThan(3000);
    // Signing in again through the replica works at once.
    const again = await login(replica, 'replica-dad@family.test');
    expect((await me(replica, again.token)).statusCode).toBe(200);
    expect((await me(gateway, again.token)).statusCode).toBe(200);
  });
});
