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
      headers: internal,
      payload: { householdId: 'h_1', missionId: 'msn_1' },
    })
  ).json().sessionId;
});
afterAll(async () => {
  await app.close();
  await orch.close();
});

const child = { ...asMember('usr_kid'), 'x-member-role': 'CHILD' };

describe('a CHILD and browser sessions', () => {
  it('cannot take over, release or terminate a session (403), which stays ACTIVE', async () => {
    for (const action of ['takeover', 'release', 'terminate']) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/households/h_1/browser/sessions/${sessionId}/${action}`,
        headers: child,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'A CHILD may not act on browser sessions' });
    }
    const read = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_1/browser/sessions/${sessionId}`,
      headers: child,
    });
    expect(read.json().status).toBe('ACTIVE');
    expect(orch.events).toEqual([]);
  });
});
