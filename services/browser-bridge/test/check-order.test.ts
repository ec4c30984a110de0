// The order of checks (decisions, Conventions): role (403), the session's existence (404) and its
// owner (403), then the body (413, 400 syntax, 422 schema), then its state (409).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMember, buildBridge, internal, startFakeOrchestrator } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let app: Awaited<ReturnType<typeof buildBridge>>;
let sessionId: string;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
  app = await buildBridge({ orchestratorUrl: orch.url });
  sessionId = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      headers: { ...internal, 'x-user-id': 'usr_owner' },
      payload: { householdId: 'h_1', missionId: 'msn_1' },
    })
  ).json().sessionId;
});
afterAll(async () => {
  await app.close();
  await orch.close();
});

const BODIES = {
  'bad JSON': '{"a":',
  'an oversized body': JSON.stringify({ type: 'SCROLL', pad: 'x'.repeat(1_100_000) }),
  'a schema-invalid body': JSON.stringify({ bogus: [1] }),
} as const;
const MISSING = { error: 'NOT_FOUND', message: 'Browser session not found' };
const post = (url: string, headers: Record<string, string>, body: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: body,
  });
const M = '/api/v1/households/h_1/browser/sessions';

describe('a missing browser session is 404 before the body is read', () => {
  for (const action of ['takeover', 'release', 'terminate'])
    for (const what of ['bad JSON', 'an oversized body'] as const) {
      it(`member POST .../sessions/bs_missing/${action} with ${what}`, async () => {
        const res = await post(`${M}/bs_missing/${action}`, asMember('usr_owner'), BODIES[what]);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(MISSING);
      });
      it(`service POST /sessions/bs_missing/${action} with ${what}`, async () => {
        const res = await post(`/api/v1/sessions/bs_missing/${action}`, internal, BODIES[what]);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(MISSING);
      });
    }

  for (const [what, body] of Object.entries(BODIES))
    it(`service POST /sessions/bs_missing/agent-action with ${what}`, async () => {
      const res = await post('/api/v1/sessions/bs_missing/agent-action', internal, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(MISSING);
    });

  it("a session of another household, or out of the service's scope, is 404 likewise", async () => {
    const other = await post(
      `/api/v1/households/h_2/browser/sessions/${sessionId}/takeover`,
      asMember('usr_owner'),
      '{"a":',
    );
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(MISSING);
    const scoped = { ...internal, 'x-household-id': 'h_2' };
    const res = await post(`/api/v1/sessions/${sessionId}/agent-action`, scoped, '{"a":');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(MISSING);
  });

  it("another member's session is 403 before the body, and the session stays ACTIVE", async () => {
    for (const body of Object.values(BODIES)) {
      const res = await post(`${M}/${sessionId}/takeover`, asMember('usr_other'), body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Only the owner of the mission can use its browser session',
      });
    }
    const read = await app.inject({ method: 'GET', url: `/api/v1/sessions/${sessionId}`, headers: internal });
    expect(read.json().status).toBe('ACTIVE');
  });
});

describe('the agent while the user holds the session', () => {
  it('is 409 CONFLICT (until release); an ended session stays 409 INVALID_STATE', async () => {
    const act = () =>
      post(`/api/v1/sessions/${sessionId}/agent-action`, internal, JSON.stringify({ type: 'SCROLL' }));
    expect((await post(`/api/v1/sessions/${sessionId}/takeover`, internal, '{}')).statusCode).toBe(200);
    const refused = await act();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'CONFLICT', message: 'the user is in control of the browser' });
    expect((await post(`/api/v1/sessions/${sessionId}/release`, internal, '{}')).statusCode).toBe(200);
    expect((await act()).statusCode).toBe(200);
    expect((await post(`/api/v1/sessions/${sessionId}/terminate`, internal, '{}')).statusCode).toBe(200);
    const ended = await act();
    expect(ended.statusCode).toBe(409);
    expect(ended.json().error).toBe('INVALID_STATE');
  });
});
