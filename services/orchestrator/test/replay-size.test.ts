// A mission's full replay (every stored event as its SSE frame) must grow linearly with its
// turns: events carry what changed in a turn, not the whole mission or plan (decisions
// "Streaming (SSE)"). Measured with the stub model and its real tool calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
const M = `/api/v1/households/${H}/orchestrator/missions`;

beforeAll(async () => {
  peers = await startFakePeers();
  app = await buildTestApp(peers.url);
});
afterAll(async () => {
  await app.close();
  await peers.close();
});

/** Bytes of the SSE frames a client replaying the mission from the start receives. */
async function replay(turns: number): Promise<{ bytes: number; mId: string }> {
  const created = await app.inject({
    method: 'POST',
    url: M,
    headers: as(OWNER),
    payload: { mission_type: 'STYLE', initial_message: 'summer tops under 80' },
  });
  const mId = created.json().mission_id as string;
  for (let i = 1; i < turns; i++) {
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${mId}/chat`,
      headers: as(OWNER),
      payload: { message: `turn ${i}: something blue under ${50 + i}` },
    });
    expect(res.statusCode).toBe(200);
  }
  const events = await app.ctx.events.after(mId, 0, 10_000);
  expect(events.filter((e) => e.type === 'turn.completed')).toHaveLength(turns);
  const bytes = events.reduce(
    (sum, e) => sum + Buffer.byteLength(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`),
    0,
  );
  return { bytes, mId };
}

describe('replay size', () => {
  it('grows linearly: 40 turns replay in at most twice the bytes of 20', async () => {
    const twenty = (await replay(20)).bytes;
    const forty = (await replay(40)).bytes;
    console.log(`replay bytes: 20 turns ${twenty}, 40 turns ${forty}`);
    expect(forty).toBeLessThanOrEqual(2 * twenty);
  }, 60_000);

  it('plan.updated carries only the changed step; tool.result pairs with its tool.call by callId', async () => {
    const { mId } = await replay(3);
    const events = await app.ctx.events.after(mId, 0, 1000);
    const started = events.find((e) => e.type === 'turn.started')!;
    expect(started.data).toEqual({ turn_id: expect.stringMatching(/^turn_/), source: 'text' });
    const plans = events.filter((e) => e.type === 'plan.updated');
    expect(plans.length).toBeGreaterThan(4);
    const last = plans.at(-1)!.data as { steps: Array<{ index: number; status: string }> };
    expect(last.steps).toEqual([
      { index: plans.length / 2 - 1, step: 'Search matching offers', status: 'DONE' },
    ]);
    const calls = events
      .filter((e) => e.type === 'tool.call')
      .map((e) => `${e.data.turn_id}/${e.data.callId}`);
    const results = events
      .filter((e) => e.type === 'tool.result')
      .map((e) => `${e.data.turn_id}/${e.data.callId}`);
    expect(new Set(calls).size).toBe(calls.length);
    expect(results).toEqual(calls);
  });
});
