import type { BrowserSession } from '@hs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserProvider, BrowserProviderError } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { asMember, buildBridge, internal, startFakeOrchestrator } from './harness.ts';

type App = Awaited<ReturnType<typeof buildBridge>>;
let orchestrator: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let app: App;

beforeAll(async () => {
  orchestrator = await startFakeOrchestrator();
  app = await buildBridge({ orchestratorUrl: orchestrator.url });
});
afterAll(async () => {
  await app.close();
  await orchestrator.close();
});

async function createSession(householdId = 'h_one', missionId = 'msn_interactive1', target = app) {
  const res = await target.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId, missionId, startUrl: 'https://shop.example.com/' },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as BrowserSession;
}

const post = (url: string, payload?: object, headers: Record<string, string> = internal) =>
  app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

describe('session lifecycle', () => {
  it('creates an ACTIVE session with a bs_ id and the fields of the decisions file', async () => {
    const s = await createSession();
    expect(s.sessionId).toMatch(/^bs_/);
    expect(s).toMatchObject({
      householdId: 'h_one',
      missionId: 'msn_interactive1',
      status: 'ACTIVE',
      provider: 'simulated',
      startUrl: 'https://shop.example.com/',
      currentUrl: 'https://shop.example.com/',
      actionLog: [],
    });
    expect(s.liveViewUrl).toMatch(/^simulated:\/\/live\//);
    expect(s).not.toHaveProperty('providerSessionId');
  });

  it('requires the internal token on service routes', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      payload: { householdId: 'h', missionId: 'm' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
  });

  it('takeover → release → terminate, each logged, and the mission is told of takeover and release', async () => {
    const s = await createSession();
    const before = orchestrator.events.length;
    const taken = await post(`/api/v1/sessions/${s.sessionId}/takeover`, undefined, asMember());
    expect(taken.statusCode).toBe(200);
    expect(taken.json().status).toBe('USER_TAKEOVER');
    const again = await post(`/api/v1/sessions/${s.sessionId}/takeover`);
    expect(again.json().status).toBe('USER_TAKEOVER');
    const released = await post(`/api/v1/sessions/${s.sessionId}/release`);
    expect(released.json().status).toBe('ACTIVE');
    const ended = await post(`/api/v1/sessions/${s.sessionId}/terminate`);
    expect(ended.json().status).toBe('TERMINATED');
    expect(
      ended.json().actionLog.map((l: { type: string; actor: string }) => `${l.actor}:${l.type}`),
    ).toEqual(['user:TAKEOVER', 'user:RELEASE', 'system:TERMINATE']);
    const told = orchestrator.events.slice(before).map((e) => e.body);
    expect(told).toEqual([
      {
        missionId: 'msn_interactive1',
        sessionId: s.sessionId,
        householdId: 'h_one',
        type: 'USER_TAKEOVER_START',
        payload: { userId: 'usr_alice', status: 'USER_TAKEOVER' },
      },
      {
        missionId: 'msn_interactive1',
        sessionId: s.sessionId,
        householdId: 'h_one',
        type: 'USER_TAKEOVER_END',
        payload: { userId: null, status: 'ACTIVE' },
      },
    ]);
  });

  it('refuses takeover, release and agent-action on a TERMINATED session with 409 INVALID_STATE', async () => {
    const s = await createSession();
    await post(`/api/v1/sessions/${s.sessionId}/terminate`);
    const body = {
      error: 'INVALID_STATE',
      message: 'Browser session is TERMINATED; only ACTIVE or USER_TAKEOVER sessions accept this',
    };
    for (const action of ['takeover', 'release']) {
      const res = await post(`/api/v1/sessions/${s.sessionId}/${action}`);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(body);
    }
    const act = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, { type: 'SCROLL' });
    expect(act.statusCode).toBe(409);
    expect(act.json()).toEqual(body);
    const endAgain = await post(`/api/v1/sessions/${s.sessionId}/terminate`);
    expect(endAgain.statusCode).toBe(200);
    expect(endAgain.json().status).toBe('TERMINATED');
  });

  it('answers 404 for an unknown session', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/sessions/bs_missing', headers: internal });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Browser session not found' });
  });
});

describe("a mission's scope", () => {
  const scoped = (householdId: string, missionId: string) => ({
    ...internal,
    'x-household-id': householdId,
    'x-mission-id': missionId,
  });

  it("refuses another household's or mission's session with 404 and leaves it untouched", async () => {
    const s = await createSession('h_one', 'msn_interactive1');
    const notFound = { error: 'NOT_FOUND', message: 'Browser session not found' };
    const wrongScopes = [scoped('h_two', 'msn_interactive1'), scoped('h_one', 'msn_other')];
    for (const headers of wrongScopes) {
      const act = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, { type: 'SCROLL' }, headers);
      expect(act.statusCode).toBe(404);
      expect(act.json()).toEqual(notFound);
      for (const url of [`/api/v1/sessions/${s.sessionId}`, `/api/v1/sessions/${s.sessionId}/elements`]) {
        const read = await app.inject({ method: 'GET', url, headers });
        expect(read.statusCode).toBe(404);
      }
      for (const action of ['takeover', 'terminate']) {
        const res = await post(`/api/v1/sessions/${s.sessionId}/${action}`, undefined, headers);
        expect(res.statusCode).toBe(404);
      }
    }
    const after = await app.inject({
      method: 'GET',
      url: `/api/v1/sessions/${s.sessionId}`,
      headers: internal,
    });
    expect(after.json()).toMatchObject({ status: 'ACTIVE', actionLog: [] });

    const own = await post(
      `/api/v1/sessions/${s.sessionId}/agent-action`,
      { type: 'SCROLL' },
      scoped('h_one', 'msn_interactive1'),
    );
    expect(own.statusCode).toBe(200);
    expect(own.json().action).toMatchObject({ seq: 1, actor: 'agent', type: 'SCROLL' });
  });
});

describe("a mission's end", () => {
  const endMission = (
    missionId: string,
    body: object = { householdId: 'h_one' },
    headers: Record<string, string> = internal,
  ) => post(`/api/v1/missions/${missionId}/sessions/terminate`, body, headers);
  const statusOf = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/api/v1/sessions/${id}`, headers: internal })).json().status;

  it("ends every open session of that mission in that household, and no one else's", async () => {
    const a = await createSession('h_one', 'msn_ending');
    const b = await createSession('h_one', 'msn_ending');
    const held = await createSession('h_one', 'msn_ending');
    expect(
      (await post(`/api/v1/sessions/${held.sessionId}/takeover`, undefined, asMember())).statusCode,
    ).toBe(200);
    const ended = await createSession('h_one', 'msn_ending');
    await post(`/api/v1/sessions/${ended.sessionId}/terminate`);
    const otherMission = await createSession('h_one', 'msn_still_running');
    const otherHousehold = await createSession('h_two', 'msn_ending');

    const res = await endMission('msn_ending');
    expect(res.statusCode).toBe(200);
    expect([...res.json().terminated].sort()).toEqual([a.sessionId, b.sessionId, held.sessionId].sort());
    for (const s of [a, b, held, ended]) expect(await statusOf(s.sessionId)).toBe('TERMINATED');
    expect(await statusOf(otherMission.sessionId)).toBe('ACTIVE');
    expect(await statusOf(otherHousehold.sessionId)).toBe('ACTIVE');
    // Again (a retried delivery): nothing left to end.
    expect((await endMission('msn_ending')).json()).toEqual({ terminated: [] });
  });

  it('needs the internal token and the household', async () => {
    const s = await createSession('h_one', 'msn_guarded');
    const forbidden = await endMission('msn_guarded', { householdId: 'h_one' }, {});
    expect(forbidden.statusCode).toBe(403);
    const noHousehold = await endMission('msn_guarded', {});
    expect(noHousehold.statusCode).toBe(422);
    expect(noHousehold.json().error).toBe('VALIDATION_ERROR');
    expect(await statusOf(s.sessionId)).toBe('ACTIVE');
  });
});

describe('agent actions', () => {
  it('navigates, clicks a link and types, logging each (typed text by length only)', async () => {
    const s = await createSession();
    const nav = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, {
      type: 'NAVIGATE',
      url: 'https://shop.example.com/search?q=linen+shirt',
    });
    expect(nav.statusCode).toBe(200);
    expect(nav.json().session.currentUrl).toBe('https://shop.example.com/search?q=linen+shirt');
    const els = await app.inject({
      method: 'GET',
      url: `/api/v1/sessions/${s.sessionId}/elements`,
      headers: internal,
    });
    const link = els.json().elements.find((e: { name: string }) => e.name === 'Result 1');
    const click = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, {
      type: 'CLICK',
      selector: link.selector,
    });
    expect(click.json().session.currentUrl).toBe('https://shop.example.com/product/1');
    const type = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, {
      type: 'TYPE',
      selector: 'input[name="q"]',
      text: 'summer dress',
    });
    expect(type.json().action).toMatchObject({ seq: 3, actor: 'agent', type: 'TYPE', textLength: 12 });
    expect(JSON.stringify(type.json())).not.toContain('summer dress');
  });

  it('refuses the agent while the user holds the browser, and lets it act again after release', async () => {
    const s = await createSession();
    await post(`/api/v1/sessions/${s.sessionId}/takeover`);
    const refused = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, { type: 'SCROLL' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message: 'the user is in control of the browser',
    });
    await post(`/api/v1/sessions/${s.sessionId}/release`);
    const ok = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, { type: 'SCROLL' });
    expect(ok.statusCode).toBe(200);
  });

  it.each([
    [{ type: 'TYPE', selector: '#q' }, 'Action TYPE needs a non-empty text'],
    [{ type: 'TYPE', text: '' }, 'Action TYPE needs a non-empty text'],
    [{ type: 'NAVIGATE' }, 'Action NAVIGATE needs a non-empty url'],
    [{ type: 'NAVIGATE', url: '   ' }, 'Action NAVIGATE needs a non-empty url'],
    [{ type: 'NAVIGATE', url: 'javascript:alert(1)' }, 'Action NAVIGATE needs an http or https url'],
    [{ type: 'CLICK' }, 'Action CLICK needs a selector'],
  ])('answers 400 INVALID_REQUEST for %j', async (payload, message) => {
    const s = await createSession();
    const res = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'INVALID_REQUEST', message });
  });

  it('answers 422 VALIDATION_ERROR for an unknown action type', async () => {
    const s = await createSession();
    const res = await post(`/api/v1/sessions/${s.sessionId}/agent-action`, { type: 'HOVER' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ loc: ['body', 'type'] }] });
  });

  it('answers 422 for a create request with a non-web startUrl', async () => {
    const res = await post('/api/v1/sessions', {
      householdId: 'h',
      missionId: 'm',
      startUrl: 'file:///etc/passwd',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'startUrl']);
  });
});

describe('provider failures', () => {
  it('gives 502 UPSTREAM_ERROR, and a lost browser fails the session', async () => {
    const simulated = createSimulatedProvider();
    let mode: 'ok' | 'flaky' | 'lost' = 'ok';
    const provider: BrowserProvider = {
      ...simulated,
      async act(handle, action) {
        if (mode === 'flaky') throw new BrowserProviderError('rate limited');
        if (mode === 'lost') throw new BrowserProviderError('browser disconnected', { sessionLost: true });
        return simulated.act(handle, action);
      },
    };
    const flakyApp = await buildBridge({ orchestratorUrl: orchestrator.url, provider });
    try {
      const s = await createSession('h_one', 'msn_interactive1', flakyApp);
      const act = () =>
        flakyApp.inject({
          method: 'POST',
          url: `/api/v1/sessions/${s.sessionId}/agent-action`,
          headers: internal,
          payload: { type: 'SCROLL' },
        });
      mode = 'flaky';
      const flaky = await act();
      expect(flaky.statusCode).toBe(502);
      expect(flaky.json()).toEqual({
        error: 'UPSTREAM_ERROR',
        message: 'Browser provider failed to perform SCROLL',
      });
      mode = 'lost';
      expect((await act()).statusCode).toBe(502);
      const after = await flakyApp.inject({
        method: 'GET',
        url: `/api/v1/sessions/${s.sessionId}`,
        headers: internal,
      });
      expect(after.json().status).toBe('FAILED');
      mode = 'ok';
      expect((await act()).statusCode).toBe(409);
    } finally {
      await flakyApp.close();
    }
  });

  it('creates nothing when the provider cannot open a browser', async () => {
    const provider: BrowserProvider = {
      ...createSimulatedProvider(),
      async create() {
        throw new BrowserProviderError('quota exceeded');
      },
    };
    const failing = await buildBridge({ orchestratorUrl: orchestrator.url, provider });
    try {
      const res = await failing.inject({
        method: 'POST',
        url: '/api/v1/sessions',
        headers: internal,
        payload: { householdId: 'h', missionId: 'm' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        error: 'UPSTREAM_ERROR',
        message: 'Browser provider failed to create a session',
      });
    } finally {
      await failing.close();
    }
  });
});

describe('household routes (forwarded by the gateway)', () => {
  it('serves the session, its elements and takeover to the household', async () => {
    const s = await createSession('h_one');
    const base = `/api/v1/households/h_one/browser/sessions/${s.sessionId}`;
    const got = await app.inject({ method: 'GET', url: base, headers: asMember() });
    expect(got.statusCode).toBe(200);
    expect(got.json().sessionId).toBe(s.sessionId);
    const els = await app.inject({ method: 'GET', url: `${base}/elements`, headers: asMember() });
    expect(els.statusCode).toBe(200);
    expect(els.json().elements.length).toBeGreaterThan(0);
    const taken = await post(`${base}/takeover`, undefined, asMember());
    expect(taken.json().status).toBe('USER_TAKEOVER');
    const released = await post(`${base}/release`, undefined, asMember());
    expect(released.json().status).toBe('ACTIVE');
    const ended = await post(`${base}/terminate`, undefined, asMember());
    expect(ended.json().status).toBe('TERMINATED');
  });

  it("answers 404 for another household's session and changes nothing", async () => {
    const s = await createSession('h_one');
    const base = `/api/v1/households/h_two/browser/sessions/${s.sessionId}`;
    for (const [method, url] of [
      ['GET', base],
      ['GET', `${base}/elements`],
      ['POST', `${base}/takeover`],
      ['POST', `${base}/release`],
      ['POST', `${base}/terminate`],
    ] as const) {
      const res = await app.inject({ method, url, headers: asMember() });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Browser session not found' });
    }
    const still = await app.inject({
      method: 'GET',
      url: `/api/v1/sessions/${s.sessionId}`,
      headers: internal,
    });
    expect(still.json()).toMatchObject({ status: 'ACTIVE', actionLog: [] });
  });

  it('needs the caller identity the gateway adds', async () => {
    const s = await createSession('h_one');
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_one/browser/sessions/${s.sessionId}`,
      headers: internal,
    });
    expect(res.statusCode).toBe(401);
  });
});
