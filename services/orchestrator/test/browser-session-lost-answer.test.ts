import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createMission, H } from './fixtures/build.ts';
import { orchestratorBehindCuttingProxy } from './fixtures/cutting-proxy.ts';
import type { FakePeers } from './fixtures/fake-peers.ts';

let setup: Awaited<ReturnType<typeof orchestratorBehindCuttingProxy>>;
let peers: FakePeers;
let proxy: typeof setup.proxy;
let app: typeof setup.app;
beforeAll(async () => {
  setup = await orchestratorBehindCuttingProxy();
  ({ peers, proxy, app } = setup);
});
afterAll(() => setup.close());

const creates = () => peers.calls.filter((c) => c.method === 'POST' && c.url === '/api/v1/sessions');

describe('a browser session whose create answer was lost', () => {
  it('is asked for again under the same Idempotency-Key, and a later new session under another', async () => {
    proxy.state.cut = 'POST /api/v1/sessions ';
    const mission = await createMission(app, 'INTERACTIVE', 'open the shop https://shop.example.com/');
    const first = mission.history.at(-1).tool_calls[0];
    expect(first.tool).toBe('create_browser_session');
    expect(first.result.error.code).toBe('UPSTREAM_ERROR');
    expect(creates()).toHaveLength(1);

    proxy.state.cut = null;
    const retry = await app.inject({
      method: 'POST',
      url: `/api/v1/households/${H}/orchestrator/missions/${mission.mission_id}/chat`,
      headers: as('usr_owner'),
      payload: { message: 'try again https://shop.example.com/' },
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().history.at(-1).tool_calls[0].result.sessionId).toBe('bs_test1');
    const [lost, again] = creates();
    const key = lost!.headers['idempotency-key'];
    expect(key).toEqual(expect.stringContaining(mission.mission_id));
    expect(again!.headers['idempotency-key']).toBe(key);

    // Once the mission knows its session, a second one (a new mission's) has a key of its own.
    const other = await createMission(app, 'INTERACTIVE', 'open https://shop.example.com/');
    expect(other.history.at(-1).tool_calls[0].result.sessionId).toBe('bs_test1');
    expect(creates().at(-1)!.headers['idempotency-key']).not.toBe(key);
  });
});
