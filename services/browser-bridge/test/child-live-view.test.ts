// A CHILD may not act on browser sessions (decisions, "What each role may do"). The live view
// link is a way to act (its takeover and input need no bearer token), so a CHILD who reads their
// session (an owner demoted to CHILD after starting the mission) gets no link, and a link read
// before a demotion or a removal stops working at once.
import type { Role } from '@hs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { asMember, buildBridge, fakeMembers, internal, startFakeOrchestrator } from './harness.ts';

/** The simulated browser, plus a live page hook, so the bridge signs live-view links as for `local`. */
const withLivePage = (): BrowserProvider => ({ ...createSimulatedProvider(), livePage: () => undefined });

const owner = 'usr_owner';
const asChild = { ...asMember(owner), 'x-member-role': 'CHILD' };

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
});
afterAll(async () => orch.close());

async function sessionOf(app: Awaited<ReturnType<typeof buildBridge>>) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: { ...internal, 'x-user-id': owner },
    payload: { householdId: 'h_1', missionId: 'msn_1' },
  });
  expect(created.statusCode).toBe(201);
  return created.json().sessionId as string;
}

describe('the live view link and a CHILD', () => {
  it.each([
    ['the provider', createSimulatedProvider()],
    ['the bridge', withLivePage()],
  ])('a CHILD owner reads the session without a live view link (%s signs it)', async (_, provider) => {
    const app = await buildBridge({
      orchestratorUrl: orch.url,
      provider,
      env: { PUBLIC_BASE_URL: 'https://api.example.com' },
    });
    try {
      const sessionId = await sessionOf(app);
      const url = `/api/v1/households/h_1/browser/sessions/${sessionId}`;
      const adult = await app.inject({ method: 'GET', url, headers: asMember(owner) });
      expect(adult.statusCode).toBe(200);
      expect(adult.json().liveViewUrl).toEqual(expect.any(String));

      const child = await app.inject({ method: 'GET', url, headers: asChild });
      expect(child.statusCode).toBe(200);
      expect(child.json()).toMatchObject({ sessionId, status: 'ACTIVE', liveViewUrl: null });
    } finally {
      await app.close();
    }
  });
});

describe('a live view link read before the household changed', () => {
  it.each([
    ['demoted to CHILD', 'CHILD' as const],
    ['removed from the household', null],
  ])('stops working for its member once %s', async (_, after: Role | null) => {
    let ownerRole: Role | null = 'ADULT';
    const app = await buildBridge({
      orchestratorUrl: orch.url,
      provider: withLivePage(),
      members: fakeMembers((userId) => (userId === owner ? ownerRole : 'ADULT')),
      env: { PUBLIC_BASE_URL: 'https://api.example.com' },
    });
    try {
      const sessionId = await sessionOf(app);
      const url = `/api/v1/households/h_1/browser/sessions/${sessionId}`;
      const link = new URL(
        (await app.inject({ method: 'GET', url, headers: asMember(owner) })).json().liveViewUrl,
      );
      const live = (action: string) => `${url}/live${action}${link.search}`;
      expect((await app.inject({ method: 'GET', url: live('') })).statusCode).toBe(200);

      ownerRole = after;
      for (const [method, action] of [
        ['GET', ''],
        ['POST', '/takeover'],
        ['POST', '/release'],
      ] as const) {
        const refused = await app.inject({ method, url: live(action) });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toBe('FORBIDDEN');
      }
      const input = await app.inject({
        method: 'POST',
        url: live('/input'),
        payload: { type: 'text', text: 'x' },
      });
      expect(input.statusCode).toBe(403);
      // Nothing happened to the session: the agent still holds it.
      const session = await app.inject({
        method: 'GET',
        url: `/api/v1/sessions/${sessionId}`,
        headers: internal,
      });
      expect(session.json().status).toBe('ACTIVE');

      ownerRole = 'ADULT';
      const takeover = await app.inject({ method: 'POST', url: live('/takeover') });
      expect(takeover.statusCode).toBe(200);
      expect(takeover.json().status).toBe('USER_TAKEOVER');
    } finally {
      await app.close();
    }
  });
});
