// A CHILD may not act on browser sessions (decisions, "What each role may do"). The live view
// link is a way to act (its takeover and input need no bearer token), so a CHILD who reads their
// session (an owner demoted to CHILD after starting the mission) gets no link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { asMember, buildBridge, internal, startFakeOrchestrator } from './harness.ts';

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
