// A mission's full replay (every stored event as its SSE frame) must grow linearly with its
// turns: events carry what changed in a turn, not the whole mission or plan (decisions
// "Streaming (SSE)"). Measured with the stub model and its real tool calls. Before the events were
// made lean, this 40-turn replay was 1,575,988 bytes; it must now be at most a tenth of that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sseFrame, sseRetry } from '../src/domain/stream-frame.ts';
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
    // Every turn asks alike, so what grows is the stream, not the conversation.
    payload: { mission_type: 'STYLE', initial_message: 'summer tops, something blue under 50' },
  });
  const mId = created.json().mission_id as string;
  for (let i = 1; i < turns; i++) {
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${mId}/chat`,
      headers: as(OWNER),
      payload: { message: `summer tops, something blue under ${50 + i}` },
    });
    expect(res.statusCode).toBe(200);
  }
  const events = await app.ctx.events.after(mId, 0, 10_000);
  expect(events.filter((e) => e.type === 'turn.completed')).toHaveLength(turns);
  const opening = Buffer.byteLength(sseRetry(app.ctx.config.stream.retryMs));
  const bytes = events.reduce((sum, e) => sum + Buffer.byteLength(sseFrame(e)), opening);
  return { bytes, mId };
}

const ORIGINAL_40_TURN_BYTES = 1_575_988;

describe('replay size', () => {
  it('grows linearly: 40 turns replay in at most twice the bytes of 20', async () => {
    const twenty = (await replay(20)).bytes;
    const forty = (await replay(40)).bytes;
    console.log(`replay bytes: 20 turns ${twenty}, 40 turns ${forty}`);
    expect(forty).toBeLessThanOrEqual(2 * twenty);
    expect(forty).toBeLessThanOrEqual(ORIGINAL_40_TURN_BYTES / 10);
  }, 60_000);

  it('plan.updated carries only the changed steps; tool.result pairs with its tool.call by callId', async () => {
    const { mId } = await replay(3);
    const events = await app.ctx.events.after(mId, 0, 1000);
    const started = events.find((e) => e.type === 'turn.started')!;
    expect(started.data).toEqual({ turn_id: expect.stringMatching(/^turn_/), source: 'text' });
    const plans = events.filter((e) => e.type === 'plan.updated');
    expect(plans.length).toBeGreaterThan(4);
    // Three per turn of two calls: the first step starts; it is done as the second starts; that one is done.
    expect(plans.slice(-2).map((e) => e.data.steps)).toEqual([
      [
        { index: 4, step: 'Review the household wardrobe', status: 'DONE' },
        { index: 5, step: 'Search matching offers', status: 'IN_PROGRESS' },
      ],
      [{ index: 5, step: 'Search matching offers', status: 'DONE' }],
    ]);
    const calls = events
      .filter((e) => e.type === 'tool.call')
      .map((e) => `${e.data.turn_id}/${e.data.callId}`);
    const results = events
      .filter((e) => e.type === 'tool.result')
      .map((e) => `${e.data.turn_id}/${e.data.callId}`);
    expect(new Set(calls).size).toBe(calls.length);
    expect(results).toEqual(calls);
    // The reply and turn.completed do not repeat what tool.call and tool.result carried.
    const message = events.filter((e) => e.type === 'message').at(-1)!.data.message as Record<
      string,
      unknown
    >;
    expect(message).not.toHaveProperty('tool_calls');
    const completed = events.filter((e) => e.type === 'turn.completed').at(-1)!.data;
    expect(completed.replyId).toBe(message.id);
    expect(completed.messages).toEqual([expect.objectContaining({ role: 'user' })]);
    expect(completed.tool_calls).toEqual([
      { callId: '1', tool: 'list_wardrobe', ok: true },
      { callId: '2', tool: 'search_commerce', ok: true },
    ]);
  });

  it("frames an event with its seq as id and its type as event, and data with the type's fields", async () => {
    const { mId } = await replay(1);
    const [changed, started] = await app.ctx.events.after(mId, 0, 2);
    expect(sseFrame(changed!)).toBe(
      `id: 1\nevent: state.changed\ndata: ${JSON.stringify({ from: null, to: 'RUNNING', missionId: mId, at: changed!.created_at })}\n\n`,
    );
    expect(sseFrame(started!)).toBe(
      `id: 2\nevent: turn.started\ndata: ${JSON.stringify({ source: 'text', missionId: mId, turnId: started!.data.turn_id, at: started!.created_at })}\n\n`,
    );
  });
});
