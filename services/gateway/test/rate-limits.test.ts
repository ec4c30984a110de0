import { createStore } from '@hs/store';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedLimiter, purgeEndedWindows } from '../src/adapters/rate-limit-store.ts';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let orchestrator: FastifyInstance;
let orchestratorUrl = '';
/** POSTs the orchestrator received: turns that ran. */
let turnsRun = 0;
const apps: GatewayApp[] = [];

beforeAll(async () => {
  orchestrator = Fastify();
  orchestrator.post('/api/v1/*', async (_req, reply) => {
    turnsRun++;
    return reply.code(201).send({ ok: true });
  });
  // The mission lookup: m_none is missing, any other mission is the caller's own.
  orchestrator.get<{ Params: { '*': string } }>('/api/v1/*', async (req, reply) => {
    const [, householdId, , , missionId] = req.params['*'].split('/');
    if (missionId === 'm_none')
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Mission not found' });
    // Another member's STYLE mission: the caller does not follow it.
    if (missionId === 'm_theirs')
      return reply
        .code(403)
        .send({ error: 'FORBIDDEN', message: "Only the mission's owner can follow this mission" });
    return {
      mission_id: missionId,
      household_id: householdId,
      owner_id: 'u_owner',
      mission_type: 'STYLE',
      state: 'RUNNING',
    };
  });
  await orchestrator.listen({ port: 0, host: '127.0.0.1' });
  orchestratorUrl = `http://127.0.0.1:${(orchestrator.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await orchestrator.close();
});

async function gateway(env: Record<string, string>, store = createStore({ backend: 'inmemory' })) {
  const app = await buildGateway({ ORCHESTRATOR_BASE_URL: orchestratorUrl, ...env }, store);
  apps.push(app);
  return app;
}

const household = async (app: GatewayApp, token: string) =>
  (
    await app.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: bearer(token),
      payload: { name: 'H' },
    })
  ).json().householdId as string;

const signIn = (app: GatewayApp, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    headers,
    payload: { idToken: 'someone@x.test' },
  });

describe('rate limits', () => {
  it('limits sign-ins per client address with 429 RATE_LIMITED and Retry-After', async () => {
    const app = await gateway({ RATE_LIMIT_LOGIN_PER_MINUTE: '2' });
    expect((await signIn(app, '10.0.0.1')).statusCode).toBe(200);
    expect((await signIn(app, '10.0.0.1')).statusCode).toBe(200);
    const third = await signIn(app, '10.0.0.1');
    expect(third.statusCode).toBe(429);
    const retryAfter = Number(third.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(third.json()).toEqual({
      error: 'RATE_LIMITED',
      message: `Too many requests; retry in ${retryAfter} s`,
    });
    // Another client is not affected.
    expect((await signIn(app, '10.0.0.2')).statusCode).toBe(200);
  });

  it('believes X-Forwarded-For only from a trusted proxy (TRUST_PROXY)', async () => {
    const untrusting = await gateway({ RATE_LIMIT_LOGIN_PER_MINUTE: '1' });
    await signIn(untrusting, '10.0.1.1', { 'x-forwarded-for': '203.0.113.1' });
    // A client can't dodge the limit by inventing a forwarded address.
    expect((await signIn(untrusting, '10.0.1.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(429);

    const behindProxy = await gateway({ RATE_LIMIT_LOGIN_PER_MINUTE: '1', TRUST_PROXY: '10.0.2.1' });
    expect((await signIn(behindProxy, '10.0.2.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(
      200,
    );
    expect((await signIn(behindProxy, '10.0.2.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(
      200,
    );
    expect((await signIn(behindProxy, '10.0.2.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(
      429,
    );
  });

  it('counts in the shared store, so two gateway replicas share one limit', async () => {
    const store = createStore({ backend: 'inmemory' });
    const a = await gateway({ RATE_LIMIT_LOGIN_PER_MINUTE: '3' }, store);
    const b = await gateway({ RATE_LIMIT_LOGIN_PER_MINUTE: '3' }, store);
    expect((await signIn(a, '10.0.3.1')).statusCode).toBe(200);
    expect((await signIn(b, '10.0.3.1')).statusCode).toBe(200);
    expect((await signIn(a, '10.0.3.1')).statusCode).toBe(200);
    expect((await signIn(b, '10.0.3.1')).statusCode).toBe(429);
  });

  it('limits chat turns per user (a new mission runs one), and nothing else under /orchestrator', async () => {
    const app = await gateway({ RATE_LIMIT_CHAT_PER_MINUTE: '2' });
    const user = await login(app, 'chatty@x.test');
    const other = await login(app, 'quiet@x.test');
    const [h1, h2] = [await household(app, user.token), await household(app, other.token)];
    const post = (token: string, h: string, path: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/orchestrator/${path}`,
        headers: bearer(token),
        payload: { message: 'hi' },
      });
    expect((await post(user.token, h1, 'missions/m1/chat')).statusCode).toBe(201);
    expect((await post(user.token, h1, 'missions/m2/chat')).statusCode).toBe(201);
    const over = await post(user.token, h1, 'missions/m1/chat');
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toBe('RATE_LIMITED');
    // Creating a mission runs its first turn: it counts too.
    expect((await post(user.token, h1, 'missions')).statusCode).toBe(429);
    expect((await post(user.token, h1, 'missions/m1/events')).statusCode).toBe(201);
    expect((await post(other.token, h2, 'missions')).statusCode).toBe(201);
    expect((await post(other.token, h2, 'missions/m3/chat')).statusCode).toBe(201);
    // Authentication comes first: no token is 401, not 429.
    const anonymous = await app.inject({
      method: 'POST',
      url: `/api/v1/households/${h1}/orchestrator/missions/m1/chat`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lets the keyed retry of a turn already answered replay over the limit; a new turn is still 429', async () => {
    const app = await gateway({ RATE_LIMIT_CHAT_PER_MINUTE: '2' });
    const user = await login(app, 'retrier@x.test');
    const h = await household(app, user.token);
    const post = (path: string, key?: string, message = 'hi') =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/orchestrator/${path}`,
        headers: { ...bearer(user.token), ...(key ? { 'idempotency-key': key } : {}) },
        payload: { message },
      });
    expect((await post('missions', 'k-1')).statusCode).toBe(201);
    expect((await post('missions/m1/chat', 'k-2')).statusCode).toBe(201);
    // Over the limit: the replies the client lost come back, marked as replays...
    for (const [path, key] of [
      ['missions', 'k-1'],
      ['missions/m1/chat', 'k-2'],
      ['missions', 'k-1'],
    ] as const) {
      const replay = await post(path, key);
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    }
    // ...and nothing new runs: a new key, no key, or the old key with another body.
    expect((await post('missions', 'k-3')).statusCode).toBe(429);
    expect((await post('missions/m1/chat')).statusCode).toBe(429);
    expect((await post('missions', 'k-1', 'something else')).statusCode).toBe(422);
  });

  it('counts the retry of a caller demoted since: it runs again at the service, so it is no replay', async () => {
    const app = await gateway({ RATE_LIMIT_CHAT_PER_MINUTE: '1' });
    const a = await login(app, 'demoted@x.test');
    const b = await login(app, 'partner@x.test');
    const h = await household(app, a.token);
    const added = await app.inject({
      method: 'POST',
      url: `/api/v1/households/${h}/members`,
      headers: bearer(a.token),
      payload: { memberId: b.userId, role: 'PARENT_GUARDIAN' },
    });
    expect(added.statusCode).toBe(201);
    const create = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/orchestrator/missions`,
        headers: { ...bearer(a.token), 'idempotency-key': 'k-demoted' },
        payload: { message: 'hi' },
      });
    expect((await create()).statusCode).toBe(201);
    const ran = turnsRun;
    const demoted = await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/${h}/members/${a.userId}`,
      headers: bearer(a.token),
      payload: { role: 'ADULT' },
    });
    expect(demoted.statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await create()).statusCode).toBe(429);
    expect(turnsRun).toBe(ran);
  });

  it('counts only the POSTs it limits: reading missions and their events costs no chat turn', async () => {
    const app = await gateway({ RATE_LIMIT_CHAT_PER_MINUTE: '1', RATE_LIMIT_EVENTS_PER_MINUTE: '1' });
    const user = await login(app, 'poller@x.test');
    const h = await household(app, user.token);
    const call = (method: 'GET' | 'POST', path: string) =>
      app.inject({
        method,
        url: `/api/v1/households/${h}/orchestrator/${path}`,
        headers: bearer(user.token),
        ...(method === 'POST' ? { payload: { message: 'hi' } } : {}),
      });
    // An app polling its list and a mission's events, as apps do.
    for (let i = 0; i < 5; i++) {
      expect((await call('GET', 'missions')).statusCode).toBe(200);
      expect((await call('GET', 'missions/m1/events')).statusCode).toBe(200);
    }
    expect((await call('POST', 'missions')).statusCode).toBe(201);
    expect((await call('POST', 'missions/m1/events')).statusCode).toBe(201);
    expect((await call('POST', 'missions/m1/chat')).statusCode).toBe(429);
  });

  it('limits client events per user (RATE_LIMIT_EVENTS_PER_MINUTE) apart from chat turns', async () => {
    const app = await gateway({ RATE_LIMIT_EVENTS_PER_MINUTE: '2', RATE_LIMIT_CHAT_PER_MINUTE: '5' });
    const user = await login(app, 'voter@x.test');
    const other = await login(app, 'calm@x.test');
    const [h1, h2] = [await household(app, user.token), await household(app, other.token)];
    const post = (token: string, h: string, path: string, to = app) =>
      to.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/orchestrator/${path}`,
        headers: bearer(token),
        payload: { eventType: 'USER_LIKED_ITEM', offerId: 'off_1' },
      });
    expect((await post(user.token, h1, 'missions/m1/events')).statusCode).toBe(201);
    expect((await post(user.token, h1, 'missions/m2/events')).statusCode).toBe(201);
    const over = await post(user.token, h1, 'missions/m1/events');
    expect(over.statusCode).toBe(429);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.json()).toEqual({
      error: 'RATE_LIMITED',
      message: `Too many requests; retry in ${retryAfter} s`,
    });
    // A missing mission is still 404, and chat turns keep their own budget; another user theirs.
    expect((await post(user.token, h1, 'missions/m_none/events')).statusCode).toBe(404);
    expect((await post(user.token, h1, 'missions/m1/chat')).statusCode).toBe(201);
    expect((await post(other.token, h2, 'missions/m3/events')).statusCode).toBe(201);

    const unlimited = await gateway({ RATE_LIMIT_EVENTS_PER_MINUTE: '0' });
    const voter = await login(unlimited, 'voter@x.test');
    const h = await household(unlimited, voter.token);
    for (let i = 0; i < 5; i++)
      expect((await post(voter.token, h, 'missions/m1/events', unlimited)).statusCode).toBe(201);
  });

  it("over the events limit, an adult's event on a mission they do not follow is 429, a child's 403", async () => {
    const app = await gateway({ RATE_LIMIT_EVENTS_PER_MINUTE: '1' });
    const parent = await login(app, 'guardian@x.test');
    const child = await login(app, 'kid@x.test');
    const h = await household(app, parent.token);
    const added = await app.inject({
      method: 'POST',
      url: `/api/v1/households/${h}/members`,
      headers: bearer(parent.token),
      payload: { memberId: child.userId, role: 'CHILD' },
    });
    expect(added.statusCode).toBe(201);
    const event = (token: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/orchestrator/missions/m_theirs/events`,
        headers: bearer(token),
        payload: { eventType: 'USER_APPROVED_PURCHASE', requestId: 'pr_1' },
      });
    // A guardian's purchase signal is open on any mission of the household (the orchestrator
    // judges it): over the limit it is the limit that answers.
    expect((await event(parent.token)).statusCode).toBe(201);
    const over = await event(parent.token);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toBe('RATE_LIMITED');
    // A child who does not follow the mission may send it nothing: 403 first, as without the limit.
    expect((await event(child.token)).statusCode).toBe(201);
    const refused = await event(child.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('FORBIDDEN');
  });

  it('limits checkout confirmations and confirmation tokens per user; 0 switches a limit off', async () => {
    const app = await gateway({ RATE_LIMIT_CONFIRM_PER_MINUTE: '1', RATE_LIMIT_LOGIN_PER_MINUTE: '0' });
    for (let i = 0; i < 5; i++) expect((await signIn(app, '10.0.4.1')).statusCode).toBe(200);
    const user = await login(app, 'buyer@x.test');
    const h = await household(app, user.token);
    // Only its existence matters here: the confirmation itself is refused for want of a token.
    await app.ctx.buyflow.requests.create({ requestId: 'pr_1', householdId: h } as never);
    const confirm = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/requests/pr_1/confirm-checkout`,
        headers: bearer(user.token),
        payload: { confirmationToken: 'x' },
      });
    expect((await confirm()).statusCode).not.toBe(429);
    expect((await confirm()).statusCode).toBe(429);
    // Confirmation tokens count apart, under the same setting: each is a live secret and an audit entry.
    const token = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/requests/pr_1/confirmation-token`,
        headers: bearer(user.token),
      });
    expect((await token()).statusCode).not.toBe(429);
    expect((await token()).statusCode).toBe(429);
  });

  it('answers 403 and 404 before 429: membership, role and existence come before the limit', async () => {
    const app = await gateway({ RATE_LIMIT_CHAT_PER_MINUTE: '1', RATE_LIMIT_CONFIRM_PER_MINUTE: '1' });
    const owner = await login(app, 'owner@x.test');
    const outsider = await login(app, 'outsider@x.test');
    const [h, elsewhere] = [await household(app, owner.token), await household(app, outsider.token)];
    const chat = (token: string, household: string, missionId: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${household}/orchestrator/missions/${missionId}/chat`,
        headers: bearer(token),
        payload: { message: 'hi' },
      });
    const confirm = (token: string, household: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${household}/requests/pr_none/confirm-checkout`,
        headers: bearer(token),
        payload: { confirmationToken: 'x' },
      });
    // Both users use up their limits in their own households.
    expect((await chat(owner.token, h, 'm1')).statusCode).toBe(201);
    expect((await chat(outsider.token, elsewhere, 'm1')).statusCode).toBe(201);
    expect((await confirm(owner.token, h)).statusCode).toBe(404);
    expect((await confirm(outsider.token, elsewhere)).statusCode).toBe(404);
    expect((await chat(owner.token, h, 'm1')).statusCode).toBe(429);

    // Over the limit, a non-member still learns only that they are not a member...
    const foreignChat = await chat(outsider.token, h, 'm1');
    expect(foreignChat.statusCode).toBe(403);
    expect(foreignChat.json().error).toBe('FORBIDDEN');
    expect((await confirm(outsider.token, h)).statusCode).toBe(403);
    // ...and a member is told a missing mission or request is missing.
    const missingMission = await chat(owner.token, h, 'm_none');
    expect(missingMission.statusCode).toBe(404);
    expect(missingMission.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
    const missingRequest = await confirm(owner.token, h);
    expect(missingRequest.statusCode).toBe(404);
    expect(missingRequest.json()).toEqual({ error: 'NOT_FOUND', message: 'Purchase request not found' });
    // A household that doesn't exist is 404 too.
    expect((await chat(owner.token, 'h_none', 'm1')).statusCode).toBe(404);
  });

  it('shares hand-checked limits (voice) across replicas through the store', async () => {
    const store = createStore({ backend: 'inmemory' });
    const options = { name: 'voice-session', limit: 2, windowMs: 60_000 };
    const [a, b] = [createSharedLimiter(store, options), createSharedLimiter(store, options)];
    expect(await a.hit('10.0.5.1')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await b.hit('10.0.5.1')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    const third = await a.hit('10.0.5.1');
    expect(third.allowed).toBe(false);
    expect(third.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await b.hit('10.0.5.2')).allowed).toBe(true);
  });

  it('purges ended windows from the store and keeps the ones still counting', async () => {
    const store = createStore({ backend: 'inmemory' });
    const windows = store.collection('rate_limits');
    const short = createSharedLimiter(store, { name: 'login', limit: 5, windowMs: 1_000 });
    const long = createSharedLimiter(store, { name: 'voice', limit: 5, windowMs: 600_000 });
    for (let i = 0; i < 30; i++) await short.hit(`10.0.6.${i}`);
    await long.hit('10.0.7.1');
    expect(await windows.count()).toBe(31);

    expect(await purgeEndedWindows(store, Date.now())).toBe(0);
    const afterShortWindows = Date.now() + 2_000;
    expect(await purgeEndedWindows(store, afterShortWindows, 20)).toBe(20);
    expect(await purgeEndedWindows(store, afterShortWindows, 20)).toBe(10);
    expect(await windows.count()).toBe(1);
    // The window still counting keeps its count.
    for (let i = 0; i < 4; i++) expect((await long.hit('10.0.7.1')).allowed).toBe(true);
    expect((await long.hit('10.0.7.1')).allowed).toBe(false);
  });
});
