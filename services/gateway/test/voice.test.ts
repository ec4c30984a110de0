import { VOICE_CLOSE_CODES } from '@hs/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEV_JWT_SECRET } from '../src/config.ts';
import { bearer, buildGateway, type GatewayApp, login, withHousehold } from './gateway-harness.ts';

const ORCH_TOKEN = 'voice-test-orchestrator-token';

// A stand-in orchestrator: missions to read, and a chat route that streams a canned SSE turn.
type FakeMission = {
  mission_id: string;
  household_id: string;
  owner_id: string;
  state: string;
  mission_type?: string;
};
const missions = new Map<string, FakeMission>();
const chats: Array<{ url: string; headers: Record<string, unknown>; body: unknown }> = [];
let orchestrator: FastifyInstance;
let orchestratorUrl = '';

const CANNED_TURN = [
  'retry: 3000\n\n: keep-alive\n\n',
  'id: 11\nevent: turn.started\ndata: {"turn":1}\n\n',
  'id: 12\nevent: tool.call\r\ndata: {"tool":"list_wardrobe",',
  '"args":{}}\n\nid: 13\nevent: message\ndata: {"content":"Two linen shirts under 80 EUR."}\n\n',
  // A space after a field's colon is optional in SSE; the relay reads both forms.
  'id:14\nevent:turn.completed\ndata:{"missionId":"MID"}\n\n',
];

async function startOrchestrator() {
  orchestrator = Fastify();
  orchestrator.get('/api/v1/households/:id/orchestrator/missions/:mId/access', async (request, reply) => {
    const { mId } = request.params as { mId: string };
    const mission = missions.get(mId);
    if (!mission || request.headers['x-internal-token'] !== ORCH_TOKEN)
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Mission not found' });
    return { mission_type: 'STYLE', ...mission, history: [], plan: [], artifacts: [] };
  });
  orchestrator.post('/api/v1/households/:id/orchestrator/missions/:mId/chat', async (request, reply) => {
    const { mId } = request.params as { mId: string };
    chats.push({ url: request.url, headers: { ...request.headers }, body: request.body });
    const mission = missions.get(mId);
    if (mission?.state !== 'RUNNING')
      return reply.code(409).send({ error: 'INVALID_STATE', message: 'Mission is DONE; chat is closed' });
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of CANNED_TURN) {
      reply.raw.write(chunk.replace('MID', mId));
      await new Promise((r) => setTimeout(r, 5));
    }
    reply.raw.end();
  });
  await orchestrator.listen({ host: '127.0.0.1', port: 0 });
  const address = orchestrator.server.address();
  orchestratorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function listen(app: GatewayApp): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

let gateway: GatewayApp;
let host = '';
let owner: { token: string; userId: string };
let other: { token: string; userId: string };
let householdId = '';

beforeAll(async () => {
  await startOrchestrator();
  gateway = await buildGateway({
    ORCHESTRATOR_BASE_URL: orchestratorUrl,
    ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
    VOICE_RATE_LIMIT_PER_MINUTE: '1000',
    PUBLIC_BASE_URL: 'https://styling.example.test/',
  });
  host = await listen(gateway);
  owner = await login(gateway, 'voice-owner@x.test');
  other = await login(gateway, 'voice-other@x.test');
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: bearer(owner.token),
    payload: { name: 'Voice home' },
  });
  householdId = created.json().householdId;
  await gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${householdId}/members`,
    headers: bearer(owner.token),
    payload: { memberId: other.userId, role: 'ADULT' },
  });
  for (const [id, state] of [
    ['msn_running', 'RUNNING'],
    ['msn_done', 'DONE'],
    ['msn_failed', 'FAILED'],
  ] as const)
    missions.set(id, { mission_id: id, household_id: householdId, owner_id: owner.userId, state });
});
afterAll(async () => {
  await gateway.close();
  await orchestrator.close();
});

const issue = (target: GatewayApp, missionId: string, token = owner.token, hid = householdId) =>
  target.inject({
    method: 'POST',
    url: `/api/v1/households/${hid}/orchestrator/missions/${missionId}/voice-session`,
    headers: bearer(token),
  });

/** A user of `app` with a household of their own and a RUNNING mission in it at the orchestrator. */
async function ownMission(app: GatewayApp, email: string, missionId: string) {
  const { householdId: hid, ...user } = await withHousehold(app, email);
  missions.set(missionId, {
    mission_id: missionId,
    household_id: hid,
    owner_id: user.userId,
    state: 'RUNNING',
  });
  return { user, hid };
}

type Received = {
  messages: Array<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
};

function connect(url: string): { ws: WebSocket } & Received {
  const ws = new WebSocket(url);
  const messages: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('error', () => {});
  return { ws, messages, closed };
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const wsUrl = (token: string) => `ws://${host}/api/v1/voice/ws?token=${encodeURIComponent(token)}`;

describe('voice session token', () => {
  it('is issued to the mission owner, short-lived, with the WebSocket URL', async () => {
    const res = await issue(gateway, 'msn_running');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.expiresInSeconds).toBe(300);
    // On PUBLIC_BASE_URL's host, ws:// becoming wss:// with https.
    expect(body.websocketUrl).toBe(
      `wss://styling.example.test/api/v1/voice/ws?token=${encodeURIComponent(body.sessionToken)}`,
    );
    const claims = JSON.parse(Buffer.from(body.sessionToken.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({
      sub: owner.userId,
      aud: 'voice',
      mission: 'msn_running',
      household: householdId,
    });
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('is refused to a member who does not own the mission (403)', async () => {
    const res = await issue(gateway, 'msn_running', other.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the mission owner can start a voice session',
    });
  });

  it('is refused for a finished mission (409 INVALID_STATE) and a missing one (404)', async () => {
    const done = await issue(gateway, 'msn_done');
    expect(done.statusCode).toBe(409);
    expect(done.json()).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it no longer accepts chat',
    });
    const missing = await issue(gateway, 'msn_nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
  });

  it('is refused to non-members (403) and without a bearer token (401)', async () => {
    const stranger = await login(gateway, 'voice-stranger@x.test');
    const res = await issue(gateway, 'msn_running', stranger.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    const anonymous = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/orchestrator/missions/msn_running/voice-session`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is rate-limited per client IP with 429 RATE_LIMITED and Retry-After', async () => {
    const limited = await buildGateway({
      ORCHESTRATOR_BASE_URL: orchestratorUrl,
      ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
      VOICE_RATE_LIMIT_PER_MINUTE: '2',
    });
    try {
      const { user, hid: hh } = await ownMission(limited, 'voice-owner@x.test', 'msn_limited');
      expect((await issue(limited, 'msn_limited', user.token, hh)).statusCode).toBe(200);
      expect((await issue(limited, 'msn_limited', user.token, hh)).statusCode).toBe(200);
      const third = await issue(limited, 'msn_limited', user.token, hh);
      expect(third.statusCode).toBe(429);
      expect(third.json().error).toBe('RATE_LIMITED');
      expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Over the limit, who may not have a session at all still hears so first (order of checks).
      const stranger = await login(limited, 'voice-stranger@x.test');
      await limited.inject({
        method: 'POST',
        url: `/api/v1/households/${hh}/members`,
        headers: bearer(user.token),
        payload: { memberId: stranger.userId, role: 'ADULT' },
      });
      expect((await issue(limited, 'msn_limited', stranger.token, hh)).statusCode).toBe(403);
      expect((await issue(limited, 'msn_nope', user.token, hh)).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

describe('voice WebSocket', () => {
  it('runs each user_text as a voice chat turn and relays the turn events', async () => {
    const { sessionToken } = (await issue(gateway, 'msn_running')).json();
    const before = chats.length;
    const conn = connect(wsUrl(sessionToken));
    // Sent before the connection is checked: it must wait, not be lost.
    conn.ws.on('open', () =>
      conn.ws.send(JSON.stringify({ type: 'user_text', text: 'linen shirts under 80' })),
    );
    await until(() => conn.messages.some((m) => m.event === 'turn.completed'));
    expect(conn.messages).toEqual([
      { type: 'ready', missionId: 'msn_running' },
      { type: 'event', event: 'turn.started', id: '11', data: { turn: 1 } },
      { type: 'event', event: 'tool.call', id: '12', data: { tool: 'list_wardrobe', args: {} } },
      { type: 'event', event: 'message', id: '13', data: { content: 'Two linen shirts under 80 EUR.' } },
      { type: 'event', event: 'turn.completed', id: '14', data: { missionId: 'msn_running' } },
    ]);
    const chat = chats[before]!;
    expect(chat.url).toBe(`/api/v1/households/${householdId}/orchestrator/missions/msn_running/chat`);
    expect(chat.body).toEqual({ message: 'linen shirts under 80' });
    expect(chat.headers).toMatchObject({
      accept: 'text/event-stream',
      'x-message-source': 'voice',
      'x-internal-token': ORCH_TOKEN,
      'x-user-id': owner.userId,
      'x-member-role': 'PARENT_GUARDIAN',
      'x-user-email': 'voice-owner@x.test',
    });
    // The turn carries its deadline, so an orchestrator that reads it after the relay gave up
    // refuses it unrun (service-kit's stale-request test shows the refusal).
    expect(Number(chat.headers['x-request-timeout-ms'])).toBeGreaterThan(0);
    expect(Math.abs(Number(chat.headers['x-request-sent-at']) - Date.now())).toBeLessThan(5000);
    conn.ws.close();
  });

  it('answers a plain GET of the socket path (no Upgrade) in the envelope, token or not', async () => {
    const { sessionToken } = (await issue(gateway, 'msn_running')).json();
    for (const url of ['/api/v1/voice/ws', `/api/v1/voice/ws?token=${encodeURIComponent(sessionToken)}`]) {
      const res = await gateway.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'BAD_REQUEST',
        message: '/api/v1/voice/ws takes a WebSocket: connect with Upgrade: websocket',
      });
      expect((await gateway.inject({ method: 'HEAD', url })).statusCode).toBe(400);
    }
  });

  it('answers invalid messages with an error and keeps the socket open', async () => {
    const { sessionToken } = (await issue(gateway, 'msn_running')).json();
    const conn = connect(wsUrl(sessionToken));
    await until(() => conn.messages.length === 1);
    conn.ws.send('not json');
    conn.ws.send(JSON.stringify({ type: 'user_text', text: '   ' }));
    conn.ws.send(JSON.stringify({ type: 'audio', data: 'xyz' }));
    conn.ws.send(JSON.stringify({ type: 'user_text', text: 'red\u0000shoes' }));
    await until(() => conn.messages.length === 5);
    expect(conn.messages.slice(1)).toEqual([
      { type: 'error', error: 'BAD_REQUEST', message: 'Message is not valid JSON' },
      {
        type: 'error',
        error: 'VALIDATION_ERROR',
        message: 'text must not be empty',
      },
      {
        type: 'error',
        error: 'VALIDATION_ERROR',
        message: 'Expected {"type":"user_text","text":"..."} with 1 to 8192 bytes of text',
      },
      {
        type: 'error',
        error: 'VALIDATION_ERROR',
        message:
          'text must not contain control characters (line breaks and tabs are fine) or hidden tag characters',
      },
    ]);
    expect(conn.ws.readyState).toBe(WebSocket.OPEN);
    conn.ws.close();
  });

  it('tells a binary frame sent before the socket is ready to send JSON text, as after', async () => {
    const { sessionToken } = (await issue(gateway, 'msn_running')).json();
    const conn = connect(wsUrl(sessionToken));
    await new Promise<void>((resolve) => conn.ws.once('open', () => resolve()));
    conn.ws.send(Buffer.from(JSON.stringify({ type: 'user_text', text: 'hi' })), { binary: true });
    await until(() => conn.messages.length === 2);
    expect(conn.messages).toEqual([
      { type: 'ready', missionId: 'msn_running' },
      { type: 'error', error: 'BAD_REQUEST', message: 'Send JSON text messages' },
    ]);
    conn.ws.close();
  });

  it('closes with 4401 for a missing, forged, expired or access-token credential', async () => {
    const key = new TextEncoder().encode(DEV_JWT_SECRET);
    const expired = await new SignJWT({ mission: 'msn_running', household: householdId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(owner.userId)
      .setIssuer('household-styling-gateway')
      .setAudience('voice')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 300)
      .sign(key);
    const forged = await new SignJWT({ mission: 'msn_running', household: householdId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(owner.userId)
      .setIssuer('household-styling-gateway')
      .setAudience('voice')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('some-other-secret-of-enough-length'));
    for (const url of [
      `ws://${host}/api/v1/voice/ws`,
      wsUrl('garbage'),
      wsUrl(expired),
      wsUrl(forged),
      wsUrl(owner.token),
    ]) {
      const conn = connect(url);
      expect((await conn.closed).code).toBe(VOICE_CLOSE_CODES.unauthorized);
    }
  });

  it('takes the next text as soon as the client hears turn.completed', async () => {
    const { sessionToken } = (await issue(gateway, 'msn_running')).json();
    const live = connect(wsUrl(sessionToken));
    await until(() => live.messages.length === 1);
    let sent = 0;
    const say = () => live.ws.send(JSON.stringify({ type: 'user_text', text: `turn ${++sent}` }));
    // Speak again the moment the end of a turn arrives, as a voice client does.
    live.ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.event === 'turn.completed' && sent < 3) say();
    });
    say();
    await until(() => live.messages.filter((m) => m.event === 'turn.completed').length === 3);
    expect(live.messages.filter((m) => m.type === 'error')).toEqual([]);
    live.ws.close();
  });

  it('closes with 4401 when the token holder has left the household', async () => {
    const leaver = await login(gateway, 'voice-leaver@x.test');
    await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/members`,
      headers: bearer(owner.token),
      payload: { memberId: leaver.userId, role: 'ADULT' },
    });
    missions.set('msn_leaver', {
      mission_id: 'msn_leaver',
      household_id: householdId,
      owner_id: leaver.userId,
      state: 'RUNNING',
    });
    const { sessionToken } = (await issue(gateway, 'msn_leaver', leaver.token)).json();
    await gateway.inject({
      method: 'DELETE',
      url: `/api/v1/households/${householdId}/members/${leaver.userId}`,
      headers: bearer(owner.token),
    });
    const conn = connect(wsUrl(sessionToken));
    expect((await conn.closed).code).toBe(VOICE_CLOSE_CODES.unauthorized);
  });

  it('closes an open conversation with 4401 as soon as its user is removed, and runs no more turns', async () => {
    const leaver = await login(gateway, 'voice-removed@x.test');
    await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/members`,
      headers: bearer(owner.token),
      payload: { memberId: leaver.userId, role: 'ADULT' },
    });
    missions.set('msn_removed', {
      mission_id: 'msn_removed',
      household_id: householdId,
      owner_id: leaver.userId,
      state: 'RUNNING',
    });
    const { sessionToken } = (await issue(gateway, 'msn_removed', leaver.token)).json();
    const live = connect(wsUrl(sessionToken));
    await until(() => live.messages.length === 1);
    const removed = await gateway.inject({
      method: 'DELETE',
      url: `/api/v1/households/${householdId}/members/${leaver.userId}`,
      headers: bearer(owner.token),
    });
    expect(removed.statusCode).toBe(204);
    const closed = await live.closed;
    expect(closed).toEqual({
      code: VOICE_CLOSE_CODES.unauthorized,
      reason: 'No longer a member of the household',
    });
    expect(chats.filter((c) => c.url.includes('msn_removed'))).toEqual([]);
  });

  it('closes an open conversation with 4401 "Signed out" when its user signs out everywhere, and refuses the token after', async () => {
    const talker = await login(gateway, 'voice-signs-out@x.test');
    await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/members`,
      headers: bearer(owner.token),
      payload: { memberId: talker.userId, role: 'ADULT' },
    });
    missions.set('msn_signout', {
      mission_id: 'msn_signout',
      household_id: householdId,
      owner_id: talker.userId,
      state: 'RUNNING',
    });
    const { sessionToken } = (await issue(gateway, 'msn_signout', talker.token)).json();
    const live = connect(wsUrl(sessionToken));
    await until(() => live.messages.length === 1);
    const out = await gateway.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: bearer(talker.token),
    });
    expect(out.statusCode).toBe(204);
    expect(await live.closed).toEqual({ code: VOICE_CLOSE_CODES.unauthorized, reason: 'Signed out' });
    const again = connect(wsUrl(sessionToken));
    expect(await again.closed).toEqual({
      code: VOICE_CLOSE_CODES.unauthorized,
      reason: 'Invalid or expired voice token',
    });
    expect(chats.filter((c) => c.url.includes('msn_signout'))).toEqual([]);
  });

  it('counts each spoken turn against the per-user chat limit (RATE_LIMIT_CHAT_PER_MINUTE)', async () => {
    const limited = await buildGateway({
      ORCHESTRATOR_BASE_URL: orchestratorUrl,
      ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
      VOICE_RATE_LIMIT_PER_MINUTE: '1000',
      RATE_LIMIT_CHAT_PER_MINUTE: '2',
    });
    try {
      const limitedHost = await listen(limited);
      const { user, hid } = await ownMission(limited, 'voice-chatty@x.test', 'msn_chatty');
      const { sessionToken } = (await issue(limited, 'msn_chatty', user.token, hid)).json();
      const live = connect(`ws://${limitedHost}/api/v1/voice/ws?token=${encodeURIComponent(sessionToken)}`);
      await until(() => live.messages.length === 1);
      const turnsEnded = () =>
        live.messages.filter((m) => m.type === 'error' || m.event === 'turn.completed').length;
      for (let turn = 1; turn <= 3; turn++) {
        live.ws.send(JSON.stringify({ type: 'user_text', text: `turn ${turn}` }));
        await until(() => turnsEnded() === turn);
      }
      expect(chats.filter((c) => c.url.includes('msn_chatty'))).toHaveLength(2);
      expect(live.messages.at(-1)).toEqual({
        type: 'error',
        error: 'RATE_LIMITED',
        message: expect.stringMatching(/^Too many turns; retry in \d+ s$/),
      });
      // The same budget as HTTP chat: that is spent too.
      const chat = await limited.inject({
        method: 'POST',
        url: `/api/v1/households/${hid}/orchestrator/missions/msn_chatty/chat`,
        headers: bearer(user.token),
        payload: { message: 'typed instead' },
      });
      expect(chat.statusCode).toBe(429);
      live.ws.close();
    } finally {
      await limited.close();
    }
  });

  it('closes with 4409 when the mission is DONE, at connect or during the conversation', async () => {
    missions.set('msn_ending', {
      mission_id: 'msn_ending',
      household_id: householdId,
      owner_id: owner.userId,
      state: 'RUNNING',
    });
    const { sessionToken } = (await issue(gateway, 'msn_ending')).json();
    const live = connect(wsUrl(sessionToken));
    await until(() => live.messages.length === 1);
    missions.get('msn_ending')!.state = 'DONE';
    live.ws.send(JSON.stringify({ type: 'user_text', text: 'one more thing' }));
    const closed = await live.closed;
    expect(closed.code).toBe(VOICE_CLOSE_CODES.invalidState);
    expect(live.messages.at(-1)).toEqual({
      type: 'error',
      error: 'INVALID_STATE',
      message: 'Mission is DONE; chat is closed',
    });

    const again = connect(wsUrl(sessionToken));
    expect((await again.closed).code).toBe(VOICE_CLOSE_CODES.invalidState);
  });

  it('closes with 4429 beyond the connect limit per client IP', async () => {
    const limited = await buildGateway({
      ORCHESTRATOR_BASE_URL: orchestratorUrl,
      ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
      VOICE_RATE_LIMIT_PER_MINUTE: '1',
    });
    try {
      const limitedHost = await listen(limited);
      const first = connect(`ws://${limitedHost}/api/v1/voice/ws?token=x`);
      expect((await first.closed).code).toBe(VOICE_CLOSE_CODES.unauthorized);
      const second = connect(`ws://${limitedHost}/api/v1/voice/ws?token=x`);
      expect((await second.closed).code).toBe(VOICE_CLOSE_CODES.rateLimited);
    } finally {
      await limited.close();
    }
  });
});

describe('voice connections per user', () => {
  it('closes one more than MAX_STREAMS_PER_USER open at once with 4429, and takes one again once one closes', async () => {
    const capped = await buildGateway({
      ORCHESTRATOR_BASE_URL: orchestratorUrl,
      ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
      VOICE_RATE_LIMIT_PER_MINUTE: '1000',
      MAX_STREAMS_PER_USER: '2',
    });
    const cappedHost = await listen(capped);
    try {
      const { user, hid } = await ownMission(capped, 'voice-capped@x.test', 'msn_capped');
      const open = async () => {
        const token = (await issue(capped, 'msn_capped', user.token, hid)).json().sessionToken as string;
        return connect(`ws://${cappedHost}/api/v1/voice/ws?token=${encodeURIComponent(token)}`);
      };
      const ready = (c: Received) => c.messages.some((m) => m.type === 'ready');
      const held = [await open(), await open()];
      await until(() => held.every(ready));

      const third = await open();
      expect(await third.closed).toEqual({
        code: VOICE_CLOSE_CODES.rateLimited,
        reason: 'Too many open voice connections: at most 2 per user at once',
      });
      expect(ready(third)).toBe(false);

      held[0]!.ws.close();
      await held[0]!.closed;
      // The gateway hears the close a moment after the client: until then a try may still be 4429.
      let again = await open();
      const end = Date.now() + 3000;
      while (!ready(again)) {
        const outcome = await Promise.race([again.closed, until(() => ready(again)).then(() => null)]);
        if (outcome === null) break;
        if (Date.now() > end) throw new Error(`no slot came back: ${outcome.code}`);
        again = await open();
      }
      expect(ready(again)).toBe(true);
      held[1]!.ws.close();
      again.ws.close();
    } finally {
      missions.delete('msn_capped');
      await capped.close();
    }
  });
});

describe('a CHILD and an INTERACTIVE mission', () => {
  it('issues no voice token and closes a socket opened before the demotion (the agent would drive a browser for them)', async () => {
    const guardian = await login(gateway, 'voice-guardian-i@x.test');
    const member = await login(gateway, 'voice-demoted-i@x.test');
    const hid = (
      await gateway.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: bearer(guardian.token),
        payload: { name: 'Browser home' },
      })
    ).json().householdId;
    const memberUrl = `/api/v1/households/${hid}/members`;
    await gateway.inject({
      method: 'POST',
      url: memberUrl,
      headers: bearer(guardian.token),
      payload: { memberId: member.userId, role: 'ADULT' },
    });
    missions.set('msn_interactive', {
      mission_id: 'msn_interactive',
      household_id: hid,
      owner_id: member.userId,
      state: 'RUNNING',
      mission_type: 'INTERACTIVE',
    });
    const issued = await issue(gateway, 'msn_interactive', member.token, hid);
    expect(issued.statusCode).toBe(200);

    const demoted = await gateway.inject({
      method: 'PATCH',
      url: `${memberUrl}/${member.userId}`,
      headers: bearer(guardian.token),
      payload: { role: 'CHILD' },
    });
    expect(demoted.statusCode).toBe(200);
    const refused = await issue(gateway, 'msn_interactive', member.token, hid);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'FORBIDDEN',
      message:
        'A CHILD may not speak to an INTERACTIVE mission: the agent would drive a real browser for them',
    });
    const socket = connect(wsUrl(issued.json().sessionToken));
    expect(await socket.closed).toEqual({
      code: VOICE_CLOSE_CODES.unauthorized,
      reason:
        'A CHILD may not speak to an INTERACTIVE mission: the agent would drive a real browser for them',
    });
  });
});
