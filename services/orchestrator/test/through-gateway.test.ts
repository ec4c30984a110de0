import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnOrchestrator, startSlowWardrobe } from './fixtures/processes.ts';
import { openEventSource } from './fixtures/sse.ts';

// Real processes, durable (sqlite): gateway, orchestrator, artifacts-audit and the tools' services.
let stack: RunningStack;
let gw: string;
let auth: Record<string, string>;
let householdId: string;
let userId: string;
const ORCH_ENV = {
  ORCHESTRATOR_TURN_LEASE_SECONDS: '2',
  ORCHESTRATOR_STREAM_POLL_MS: '100',
  ORCHESTRATOR_SSE_RETRY_MS: '200',
};

const GATEWAY_TIMEOUT_S = 3;

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${gw}${path}`, {
    method,
    ...(body === undefined
      ? { headers: { authorization: auth.authorization! } }
      : { headers: auth, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};

beforeAll(async () => {
  stack = await startStack({
    services: [
      'gateway',
      'orchestrator',
      'artifacts-audit',
      'wardrobe',
      'commerce',
      'browser-bridge',
      'cartprep',
    ],
    durable: true,
    // A short peer timeout at the gateway: an idle stream must outlive it. Not shorter: it is
    // also the budget of every turn these tests run through the gateway (its tool calls get what
    // is left of it), and with 1 s a loaded machine timed out the offer search of the first turn.
    perService: {
      orchestrator: ORCH_ENV,
      // One user runs every mission and turn of this file, more than a person's 30 a minute.
      gateway: { INTERNAL_API_TIMEOUT_SECONDS: String(GATEWAY_TIMEOUT_S), RATE_LIMIT_CHAT_PER_MINUTE: '0' },
    },
  });
  gw = stack.url('gateway');
  const login = (await (
    await fetch(`${gw}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: 'alice' }),
    })
  ).json()) as { accessToken: string };
  auth = { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' };
  userId = (await api('GET', '/api/v1/me')).body.userId;
  householdId = (await api('POST', '/api/v1/households', { name: 'Home' })).body.householdId;
  for (const [title, price] of [
    ['Linen shirt', 45],
    ['Silk blouse', 95],
    ['Cotton tee', 20],
  ] as const)
    await api('POST', `/api/v1/households/${householdId}/offers`, {
      title,
      url: 'https://shop.zalando.de/x',
      price,
      currency: 'EUR',
      category: 'TOP',
      season: ['SUMMER'],
    });
});
afterAll(async () => {
  await stack?.close();
});

const missions = () => `/api/v1/households/${householdId}/orchestrator/missions`;

describe('missions through the gateway', () => {
  it('STYLE: tool calls in history, live stream, complete → artifacts and audit trail', async () => {
    const created = await api('POST', missions(), {
      mission_type: 'STYLE',
      initial_message: 'summer tops under 80 EUR',
    });
    expect(created.status).toBe(201);
    const m = created.body;
    const offers = m.history[1].tool_calls[1].result.items.map((o: { title: string }) => o.title);
    expect(offers).toEqual(['Cotton tee', 'Linen shirt']);

    const { es, received } = openEventSource(`${gw}${missions()}/${m.mission_id}/stream`, auth);
    try {
      await vi.waitFor(() => expect(received.some((e) => e.type === 'turn.completed')).toBe(true), {
        timeout: 5000,
      });
      const chat = await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'anything in black?' });
      expect(chat.status).toBe(200);
      await vi.waitFor(() => expect(received.filter((e) => e.type === 'turn.completed')).toHaveLength(2), {
        timeout: 5000,
      });
    } finally {
      es.close();
    }
    expect((await api('POST', `${missions()}/${m.mission_id}/complete`)).body.state).toBe('DONE');
    const artifacts = await api(
      'GET',
      `/api/v1/households/${householdId}/missions/${m.mission_id}/artifacts`,
    );
    expect(artifacts.body.map((a: { type: string }) => a.type).sort()).toEqual([
      'MissionPlan',
      'OutcomeSummary',
      'Transcript',
    ]);
    const view = (await api('GET', `${missions()}/${m.mission_id}`)).body;
    expect(view.artifacts.map((a: { type: string }) => a.type)).toEqual([
      'MissionPlan',
      'Transcript',
      'OutcomeSummary',
    ]);
    const audit = await api(
      'GET',
      `/api/v1/households/${householdId}/missions/${m.mission_id}/audit?limit=50`,
    );
    const actions = audit.body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['MISSION_CREATED', 'TOOL_CALLED', 'MISSION_COMPLETED']));
  });

  it('keeps an idle stream open through the gateway (longer than its peer timeout)', async () => {
    const m = (await api('POST', missions(), { mission_type: 'STYLE', initial_message: 'hello' })).body;
    const res = await fetch(`${gw}${missions()}/${m.mission_id}/stream`, {
      headers: { authorization: auth.authorization! },
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_S * 1000 + 8000),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let body = '';
    await new Promise((r) => setTimeout(r, GATEWAY_TIMEOUT_S * 1000 + 500));
    await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'still there?' });
    // The first turn.completed is the creation turn's (replayed); the second arrives after the idle wait.
    while (body.split('event: turn.completed').length < 3) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream was cut: ${body}`);
      body += decoder.decode(value);
    }
    await reader.cancel();
    expect(body.startsWith('retry: 200')).toBe(true);
  });

  it('POLL, CARTPREP and INTERACTIVE missions run their tools through the real services', async () => {
    const poll = (
      await api('POST', missions(), { mission_type: 'POLL', initial_message: 'tops under 50 EUR' })
    ).body;
    const candidate = poll.history[1].tool_calls[0].result.items[0].offerId;
    const vote = await api('POST', `${missions()}/${poll.mission_id}/events`, {
      eventType: 'USER_LIKED_ITEM',
      offerId: candidate,
    });
    expect(vote.body).toEqual({ accepted: true, missionId: poll.mission_id, eventType: 'USER_LIKED_ITEM' });
    const standing = await api('POST', `${missions()}/${poll.mission_id}/chat`, { message: 'standing?' });
    expect(standing.body.history.at(-1).content).toMatch(
      /^Standing: Cotton tee: 1 like, 0 dislikes \(leading\)/,
    );

    const cart = (
      await api('POST', missions(), { mission_type: 'CARTPREP', initial_message: 'prepare pr_unknown' })
    ).body;
    expect(cart.history[1].tool_calls[0]).toMatchObject({
      tool: 'prepare_cart',
      args: { requestId: 'pr_unknown' },
    });
    expect(cart.history[1].content).toContain('pr_unknown');

    const live = (
      await api('POST', missions(), {
        mission_type: 'INTERACTIVE',
        initial_message: 'open https://shop.zalando.de',
      })
    ).body;
    const session = live.history[1].tool_calls[0].result;
    expect(session.sessionId).toMatch(/^bs_/);
    const takeover = await api('POST', `${missions()}/${live.mission_id}/events`, {
      eventType: 'USER_TAKEOVER_START',
      sessionId: session.sessionId,
    });
    expect(takeover.status).toBe(200);
    // The event changed the real bridge's session, as the takeover route would have.
    const held = await api('GET', `/api/v1/households/${householdId}/browser/sessions/${session.sessionId}`);
    expect(held.body.status).toBe('USER_TAKEOVER');
    const wrong = await api('POST', `${missions()}/${poll.mission_id}/events`, {
      eventType: 'USER_TAKEOVER_END',
      sessionId: session.sessionId,
    });
    expect(wrong.body.error).toBe('INVALID_MISSION_TYPE');
    const stranger = await fetch(`${gw}${missions()}/${live.mission_id}`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(stranger.status).toBe(401);
  });
});

describe("INTERACTIVE: a mission's browser session is its owner's", () => {
  /** Signs a user in and adds them to the household with a role; answers their headers. */
  const member = async (idToken: string, role: 'ADULT' | 'CHILD') => {
    const { accessToken } = (await (
      await fetch(`${gw}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken }),
      })
    ).json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}` };
    const me = (await (await fetch(`${gw}/api/v1/me`, { headers })).json()) as { userId: string };
    const added = await api('POST', `/api/v1/households/${householdId}/members`, {
      memberId: me.userId,
      role,
    });
    expect(added.status).toBe(201);
    return headers;
  };

  it('another ADULT or a CHILD gets 403 on every session route, as on the mission; the owner 200', async () => {
    const adult = await member('bob-session-peer', 'ADULT');
    const child = await member('kid-session-peer', 'CHILD');
    const missions = `/api/v1/households/${householdId}/orchestrator/missions`;
    const live = (
      await api('POST', missions, {
        mission_type: 'INTERACTIVE',
        initial_message: 'open https://shop.zalando.de',
      })
    ).body;
    const { sessionId } = live.history[1].tool_calls[0].result;
    const base = `/api/v1/households/${householdId}/browser/sessions/${sessionId}`;
    const routes = [
      ['GET', base],
      ['GET', `${base}/elements`],
      ['POST', `${base}/takeover`],
      ['POST', `${base}/release`],
      ['POST', `${base}/terminate`],
    ] as const;
    const asOther = async (headers: Record<string, string>, method: string, path: string) => {
      const res = await fetch(`${gw}${path}`, { method, headers });
      return { path, status: res.status, body: await res.json() };
    };
    // The same person is refused the mission itself.
    expect((await asOther(adult, 'GET', `${missions}/${live.mission_id}`)).status).toBe(403);
    for (const [method, path] of routes)
      expect(await asOther(adult, method, path)).toEqual({
        path,
        status: 403,
        body: { error: 'FORBIDDEN', message: 'Only the owner of the mission can use its browser session' },
      });
    for (const [method, path] of routes) expect((await asOther(child, method, path)).status).toBe(403);

    const read = await api('GET', base);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ sessionId, status: 'ACTIVE', actionLog: [] });
    expect((await api('POST', `${base}/terminate`)).body.status).toBe('TERMINATED');
  });
});

describe('CARTPREP: the stylist reports how cart preparation went', () => {
  it('a cart-prep failure reaches the next reply; "retry" dispatches again and that failure is reported too', async () => {
    const h = `/api/v1/households/${householdId}`;
    const pr = await api('POST', `${h}/requests`, {
      title: 'Wool coat',
      url: 'https://shop.example.com/p/wool-coat?simulate=SIZE_UNAVAILABLE',
      price: 120,
      currency: 'EUR',
      size: 'XL',
    });
    expect(pr.status).toBe(201);
    const r = `${h}/requests/${pr.body.requestId}`;
    expect((await api('POST', `${r}/approve`, {})).status).toBe(200);
    const failedAfter = async (jobId: string) =>
      vi.waitFor(
        async () => {
          const got = (await api('GET', r)).body;
          expect(got).toMatchObject({
            status: 'APPROVED',
            lastFailure: { jobId, errorCode: 'SIZE_UNAVAILABLE' },
          });
        },
        { timeout: 15_000, interval: 100 },
      );

    const m = (
      await api('POST', missions(), {
        mission_type: 'CARTPREP',
        initial_message: `prepare ${pr.body.requestId}`,
      })
    ).body;
    const firstJob = m.history[1].tool_calls[0].result.cartprepJobId;
    expect(firstJob).toMatch(/^cpj_/);
    expect(m.history[1].content).toContain(`has started (job ${firstJob})`);
    await failedAfter(firstJob);

    const failed = (await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'how did it go?' }))
      .body;
    expect(failed.history.at(-1).content).toBe(
      `Cart preparation for "Wool coat" (${pr.body.requestId}) failed: the size is out of stock. The approval still stands, so it can be tried again. Say "retry" and I'll try again.`,
    );

    const retried = (await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'retry' })).body;
    const secondJob = retried.history.at(-1).tool_calls[0].result.cartprepJobId;
    expect(secondJob).toMatch(/^cpj_/);
    expect(secondJob).not.toBe(firstJob);
    expect(retried.history.at(-1).content).toBe(
      `Cart preparation for ${pr.body.requestId} has started again (job ${secondJob}). I never buy: you confirm the final checkout yourself.`,
    );
    await failedAfter(secondJob);
    const again = (await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'and now?' })).body;
    expect(again.history.at(-1).tool_calls[0]).toMatchObject({
      tool: 'check_cart',
      result: { outcome: 'FAILED', failure: { jobId: secondJob, errorCode: 'SIZE_UNAVAILABLE' } },
    });
    expect(again.history.at(-1).content).toContain('failed: the size is out of stock');
  }, 40_000);
});

describe('two orchestrator processes on one sqlite file', () => {
  it('one streams a turn the other runs; a process killed mid-turn leaves the mission usable', async () => {
    const wardrobe = await startSlowWardrobe();
    // Process 2 keeps the default turn lease (6 s): that is what a crash costs a mission.
    const { ORCHESTRATOR_TURN_LEASE_SECONDS: _short, ...defaultLease } = ORCH_ENV;
    const second = await spawnOrchestrator({
      ...stack.env,
      ...defaultLease,
      WARDROBE_BASE_URL: wardrobe.url,
    });
    const internal = {
      'x-internal-token': 'dev-internal-token-orchestrator',
      'x-user-id': userId,
      'x-member-role': 'PARENT_GUARDIAN',
      'content-type': 'application/json',
    };
    try {
      // A mission created through the gateway (process 1) streams from process 2.
      const m = (await api('POST', missions(), { mission_type: 'STYLE', initial_message: 'summer tops' }))
        .body;
      const { es, received } = openEventSource(`${second.url}${missions()}/${m.mission_id}/stream`, internal);
      try {
        await vi.waitFor(() => expect(received.some((e) => e.type === 'turn.completed')).toBe(true), {
          timeout: 5000,
        });
        await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'and in white?' });
        await vi.waitFor(() => expect(received.filter((e) => e.type === 'turn.completed')).toHaveLength(2), {
          timeout: 5000,
        });
        expect(received.map((e) => e.seq)).toEqual(Array.from({ length: received.length }, (_, i) => i + 1));
      } finally {
        es.close();
      }

      // Process 2 dies in the middle of a turn (its wardrobe call hangs).
      wardrobe.hang();
      const seen = wardrobe.seen();
      void fetch(`${second.url}${missions()}/${m.mission_id}/chat`, {
        method: 'POST',
        headers: internal,
        body: JSON.stringify({ message: 'jackets?' }),
      }).catch(() => {});
      await vi.waitFor(() => expect(wardrobe.seen()).toBeGreaterThan(seen), { timeout: 5000 });
      await second.kill();
      const blocked = await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'hello?' });
      expect(blocked.status).toBe(409);
      expect(blocked.body.error).toBe('CONFLICT');
      // The dead turn's lease runs out within seconds; the mission takes the next message and
      // the dead turn is closed (turn.failed) for every follower of the stream.
      await vi.waitFor(
        async () =>
          expect(
            (await api('POST', `${missions()}/${m.mission_id}/chat`, { message: 'hello again' })).status,
          ).toBe(200),
        { timeout: 10_000, interval: 300 },
      );
      const view = (await api('GET', `${missions()}/${m.mission_id}`)).body;
      expect(view.state).toBe('RUNNING');
      expect(view.history.at(-1).role).toBe('model');
      const replay = openEventSource(
        `${stack.url('orchestrator')}${missions()}/${m.mission_id}/stream?after=0`,
        internal,
      );
      try {
        await vi.waitFor(
          () => expect(replay.received.filter((e) => e.type === 'turn.completed')).toHaveLength(3),
          { timeout: 5000 },
        );
        expect(replay.received.filter((e) => e.type === 'turn.failed').map((e) => e.data.code)).toEqual([
          'TURN_INTERRUPTED',
        ]);
      } finally {
        replay.es.close();
      }
    } finally {
      await second.kill();
      await wardrobe.close();
    }
  });
});
