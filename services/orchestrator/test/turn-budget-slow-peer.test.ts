import { REQUEST_TIMEOUT_HEADER } from '@hs/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, createMission, H } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

// A peer that accepts the call and answers long after everyone stopped waiting (a hung process,
// a network black hole). The gateway gives a JSON chat 10 s; here the chat's caller gives 5 s.
const HUNG_MS = 8000;

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  peers = await startFakePeers();
  app = await buildTestApp(peers.url);
});
afterEach(() => peers.behaviour.clear());
afterAll(async () => {
  await app.close();
  await peers.close();
});

const chat = (missionId: string, message: string, budgetMs: number) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/households/${H}/orchestrator/missions/${missionId}/chat`,
    headers: as('usr_owner', { [REQUEST_TIMEOUT_HEADER]: String(budgetMs) }),
    payload: { message },
  });
const lastCalls = (res: { json(): { history: Array<{ tool_calls: unknown }> } }) =>
  res.json().history.at(-1)!.tool_calls as Array<{ tool: string; result: Record<string, unknown> }>;

describe('a chat turn while a peer hangs', () => {
  it('does not let the household member list (a nicety) use up the time of the search', async () => {
    const mission = await createMission(app, 'STYLE', 'hello');
    peers.behaviour.set('/members', HUNG_MS);
    const res = await chat(mission.mission_id, 'a linen shirt under 80', 5000);
    expect(res.statusCode).toBe(200);
    const search = lastCalls(res).find((c) => c.tool === 'search_commerce');
    expect(search?.result).toMatchObject({ items: expect.any(Array) });
    expect(search?.result).not.toHaveProperty('error');
  });

  it('says a tool was not run when earlier steps used up the turn, rather than blaming its peer', async () => {
    const mission = await createMission(app, 'STYLE', 'hello');
    peers.behaviour.set('/wardrobe/items', HUNG_MS);
    const searchesBefore = peers.calls.filter((c) => c.url === '/api/v1/search').length;
    const res = await chat(mission.mission_id, 'a linen shirt under 80', 3000);
    expect(res.statusCode).toBe(200);
    const search = lastCalls(res).find((c) => c.tool === 'search_commerce');
    expect(search?.result).toEqual({
      error: {
        code: 'UPSTREAM_TIMEOUT',
        message: 'The shop search was not tried: earlier steps of this turn used up its time',
      },
    });
    expect(res.json().history.at(-1).content).not.toMatch(/within 0 ms/);
    expect(peers.calls.filter((c) => c.url === '/api/v1/search').length).toBe(searchesBefore);
  });
});
