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

const chat = async (missionId: string, message: string) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/households/${H}/orchestrator/missions/${missionId}/chat`,
    headers: as('usr_owner'),
    payload: { message },
  });
  expect(res.statusCode).toBe(200);
  return res.json().history.at(-1) as { content: string };
};
const intents = () => peers.calls.filter((c) => c.url.endsWith('/purchase-intents'));

describe('a cart preparation whose start was answered but the answer lost', () => {
  it('is followed when asked again, not refused, and its ready cart is reported', async () => {
    peers.requests.set('pr_lost', {});
    const mission = await createMission(app, 'CARTPREP', 'hello');
    proxy.state.cut = 'POST /api/v1/internal/households/h_1/requests/pr_lost/purchase-intents ';
    const lost = await chat(mission.mission_id, 'prepare the cart for pr_lost');
    expect(lost.content).toMatch(/couldn't prepare the cart for pr_lost/);
    expect(intents()).toHaveLength(1);
    proxy.state.cut = null;

    // The gateway did start it (CART_PREP, job cpj_1): asking again follows that job, starts none.
    const again = await chat(mission.mission_id, 'prepare the cart for pr_lost');
    expect(again.content).toContain('cpj_1');
    expect(again.content).not.toMatch(/only an APPROVED request/);
    expect(intents()).toHaveLength(1);

    peers.requests.set('pr_lost', { status: 'CART_READY', cartprepJobId: 'cpj_1' });
    const later = await chat(mission.mission_id, 'how is it going?');
    expect(later.content).toMatch(/cart for "Rain jacket" \(pr_lost\) is ready|is ready/);
  });

  it('reports a cart that is already ready as ready rather than as not eligible', async () => {
    peers.requests.set('pr_ready', { status: 'CART_READY', cartprepJobId: 'cpj_9' });
    const mission = await createMission(app, 'CARTPREP', 'hello');
    const reply = await chat(mission.mission_id, 'prepare the cart for pr_ready');
    expect(reply.content).toMatch(/is ready/);
    expect(reply.content).not.toMatch(/only an APPROVED request/);
  });
});
