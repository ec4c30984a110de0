// Decisions "What each role may do": members act on THEIR browser sessions. The session's live
// view shows the owner's browser (maybe signed in at a shop), so another member of the household
// may neither read nor drive it through the member routes the gateway forwards.
import type { BrowserSession } from '@hs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMember, buildBridge, internal, startFakeOrchestrator } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let app: Awaited<ReturnType<typeof buildBridge>>;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
  app = await buildBridge({ orchestratorUrl: orch.url });
});
afterAll(async () => {
  await app.close();
  await orch.close();
});

const OWNER = 'usr_owner';
const NOT_OWNER = {
  error: 'FORBIDDEN',
  message: 'Only the owner of the mission can use its browser session',
};
const as = (userId: string, role: 'ADULT' | 'PARENT_GUARDIAN' | 'CHILD' = 'ADULT') => ({
  ...asMember(userId),
  'x-member-role': role,
});

/** As the orchestrator opens it: during the owner's turn, with the owner's identity. */
async function openSession(headers: Record<string, string> = as(OWNER)): Promise<BrowserSession> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers,
    payload: { householdId: 'h_1', missionId: 'msn_owned' },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const routes = (sessionId: string, household = 'h_1') => {
  const base = `/api/v1/households/${household}/browser/sessions/${sessionId}`;
  return [
    ['GET', base],
    ['GET', `${base}/elements`],
    ['POST', `${base}/takeover`],
    ['POST', `${base}/release`],
    ['POST', `${base}/terminate`],
  ] as const;
};

const stored = async (sessionId: string) =>
  (await app.inject({ method: 'GET', url: `/api/v1/sessions/${sessionId}`, headers: internal })).json();

describe("another member and a member's browser session", () => {
  it('refuses another ADULT or a guardian on every route (403) and changes nothing', async () => {
    const s = await openSession();
    for (const caller of [as('usr_other'), as('usr_parent', 'PARENT_GUARDIAN')])
      for (const [method, url] of routes(s.sessionId)) {
        const res = await app.inject({ method, url, headers: caller });
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({
          url,
          status: 403,
          body: NOT_OWNER,
        });
      }
    expect(await stored(s.sessionId)).toMatchObject({ status: 'ACTIVE', actionLog: [] });
    expect(orch.events).toEqual([]);
  });

  it('refuses a CHILD on every route (403)', async () => {
    const s = await openSession();
    for (const [method, url] of routes(s.sessionId)) {
      const res = await app.inject({ method, url, headers: as('usr_kid', 'CHILD') });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('FORBIDDEN');
    }
    expect(await stored(s.sessionId)).toMatchObject({ status: 'ACTIVE', actionLog: [] });
  });

  it("still answers 404 for a session of another household, whoever's it is", async () => {
    const s = await openSession();
    for (const [method, url] of routes(s.sessionId, 'h_2')) {
      const res = await app.inject({ method, url, headers: as('usr_other') });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Browser session not found' });
    }
  });

  it('serves the owner on every route, without naming the owner in the session', async () => {
    const s = await openSession();
    expect(s).not.toHaveProperty('ownerId');
    const [read, elements, takeover, release, terminate] = routes(s.sessionId);
    const call = async ([method, url]: readonly ['GET' | 'POST', string]) =>
      app.inject({ method, url, headers: as(OWNER) });
    const got = await call(read);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ sessionId: s.sessionId, status: 'ACTIVE' });
    expect(got.json()).not.toHaveProperty('ownerId');
    expect((await call(elements)).statusCode).toBe(200);
    expect((await call(takeover)).json().status).toBe('USER_TAKEOVER');
    expect((await call(release)).json().status).toBe('ACTIVE');
    expect((await call(terminate)).json().status).toBe('TERMINATED');
  });

  it('keeps serving the household for a session opened without an owner', async () => {
    const s = await openSession(internal);
    const [read, , , , terminate] = routes(s.sessionId);
    expect((await app.inject({ method: read[0], url: read[1], headers: as('usr_other') })).statusCode).toBe(
      200,
    );
    const ended = await app.inject({ method: terminate[0], url: terminate[1], headers: as('usr_other') });
    expect(ended.json().status).toBe('TERMINATED');
  });
});
