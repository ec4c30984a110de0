// An INTERACTIVE mission that ends (completed or cancelled) ends its browser sessions: the
// household gets its places back at once instead of after the bridge's idle timeout. A bridge
// that is down when the mission ends does not hold the end up; the sessions end once it is back.
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  type JourneyClient,
  type Json,
  journeyClient,
  reply,
  type User,
} from './journey-client.ts';

let stack: RunningStack;
let client: JourneyClient;
let parent: User;
let householdId: string;

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'orchestrator', 'browser-bridge', 'artifacts-audit'],
    durable: true,
    // Retries of the closing come quickly, so the test sees the bridge's return within seconds.
    perService: { orchestrator: { OUTBOX_RETRY_MAX_SECONDS: '1' } },
  });
  client = journeyClient(stack.url('gateway'));
  parent = await client.login('closing-parent@family.test');
  householdId = await client.household(parent, 'Closing family');
}, 90_000);

afterAll(async () => {
  await stack?.close();
});

const as = (user: User) => client.as(user);
const at = (mId: string) => ({ params: { path: { id: householdId, mId } } });

/** An INTERACTIVE mission whose first message opened a browser: its id and the session's. */
async function missionWithBrowser() {
  const mission = reply(
    await as(parent).POST('/api/v1/households/{id}/orchestrator/missions', {
      params: { path: { id: householdId } },
      body: { mission_type: 'INTERACTIVE', initial_message: 'Open https://shop.example.com/p/linen-shirt' },
    }),
  );
  expect(mission.status).toBe(201);
  const sessionId = (mission.body.history as Json[])
    .flatMap((m) => (m.tool_calls as Json[] | null) ?? [])
    .map((c) => (c.result as Json | undefined)?.sessionId)
    .find((id) => typeof id === 'string') as string;
  expect(sessionId).toMatch(/^bs_/);
  return { mId: mission.body.mission_id as string, sessionId };
}

const sessionStatus = async (sessionId: string) =>
  reply(
    await as(parent).GET('/api/v1/households/{id}/browser/sessions/{sessionId}', {
      params: { path: { id: householdId, sessionId } },
    }),
  ).body.status;

describe("an INTERACTIVE mission's end", () => {
  it('completing it ends its browser session, and only its own', async () => {
    const ending = await missionWithBrowser();
    const other = await missionWithBrowser();
    expect(await sessionStatus(ending.sessionId)).toBe('ACTIVE');
    const done = reply(
      await as(parent).POST('/api/v1/households/{id}/orchestrator/missions/{mId}/complete', at(ending.mId)),
    );
    expect(done.status).toBe(200);
    expect(done.body.state).toBe('DONE');
    // The end waits for the bridge when it answers in time: closed by the time it answers.
    expect(await sessionStatus(ending.sessionId)).toBe('TERMINATED');
    expect(await sessionStatus(other.sessionId)).toBe('ACTIVE');
  }, 60_000);

  it('cancelling it while the bridge is down answers at once; the session ends once the bridge is back', async () => {
    const { mId, sessionId } = await missionWithBrowser();
    expect(await stack.stop('browser-bridge')).toBe(0);
    const started = Date.now();
    const cancelled = reply(
      await as(parent).POST('/api/v1/households/{id}/orchestrator/missions/{mId}/cancel', at(mId)),
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('FAILED');
    expect(Date.now() - started).toBeLessThan(5000);
    await stack.start('browser-bridge');
    const ended = await eventually(
      () => sessionStatus(sessionId),
      (status) => status === 'TERMINATED',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(ended).toBe('TERMINATED');
  }, 60_000);
});
