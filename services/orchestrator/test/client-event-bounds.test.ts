// What a member's client events can make the service keep: metadata a few annotations (400
// beyond), an audit entry that names the event without copying what was attached, and votes only
// on offers the mission proposed (or, without candidates, on at most MAX_VOTED_OFFERS offers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VOTED_OFFERS } from '../src/domain/poll-tally.ts';
import { as, buildTestApp, createMission, H, OWNER, TOKEN } from './fixtures/build.ts';
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

const create = async (mission_type: string, initial_message: string) =>
  (await createMission(app, mission_type, initial_message)).mission_id as string;
const send = (mId: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `${M}/${mId}/events`, headers: as(OWNER), payload });
const stored = async (mId: string) =>
  (await app.ctx.events.after(mId, 0, 10_000)).filter((e) => e.type === 'client.event');

describe('client event metadata', () => {
  it("refuses metadata over 2 KB or 20 keys with this route's validation status (400) naming metadata, and keeps nothing of it", async () => {
    const mId = await create('POLL', 'summer looks under 50 EUR for the family');
    const big = await send(mId, {
      eventType: 'USER_LIKED_ITEM',
      offerId: 'off_b',
      metadata: { a: 'x'.repeat(3000) },
    });
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [{ loc: ['body', 'metadata'], msg: 'must be at most 2048 bytes as JSON', type: 'custom' }],
    });
    const manyKeys = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    const many = await send(mId, { eventType: 'USER_LIKED_ITEM', offerId: 'off_b', metadata: manyKeys });
    expect(many.statusCode).toBe(400);
    expect(many.json().details).toEqual([
      { loc: ['body', 'metadata'], msg: 'must have at most 20 keys', type: 'custom' },
    ]);
    expect(await stored(mId)).toEqual([]);
    // A missing field is still the spec's 400.
    expect(
      (await send(mId, { eventType: 'USER_LIKED_ITEM', metadata: { a: 'x'.repeat(3000) } })).statusCode,
    ).toBe(400);
    const fits = await send(mId, {
      eventType: 'USER_LIKED_ITEM',
      offerId: 'off_b',
      metadata: { a: 'x'.repeat(1500) },
    });
    expect(fits.statusCode).toBe(200);
    expect(await stored(mId)).toHaveLength(1);
  });

  it("records the event's type, ids and metadata keys in the audit entry, not what was attached", async () => {
    const mId = await create('POLL', 'summer looks under 50 EUR for the family');
    const reason = `too itchy ${'z'.repeat(1500)}`;
    const res = await send(mId, {
      eventType: 'USER_DISLIKED_ITEM',
      offerId: 'off_a',
      reason,
      metadata: { screen: 'poll', note: 'y'.repeat(1500) },
    });
    expect(res.statusCode).toBe(200);
    await app.ctx.audit.outbox?.drain();
    const entry = peers.audit.findLast((a) => a.action === 'CLIENT_EVENT')!;
    expect(entry.detail).toEqual({
      eventType: 'USER_DISLIKED_ITEM',
      offerId: 'off_a',
      reason: reason.slice(0, 200),
      metadataKeys: ['screen', 'note'],
    });
    // The mission's stream still shows the event as sent.
    expect((await stored(mId)).at(-1)!.data).toMatchObject({ reason, metadata: { note: 'y'.repeat(1500) } });
  });
});

describe('votes a mission keeps', () => {
  it("takes votes only on a POLL's candidates once it has proposed them: 409 CONFLICT otherwise", async () => {
    const mId = await create('POLL', 'summer looks under 50 EUR for the family');
    const stray = await send(mId, { eventType: 'USER_LIKED_ITEM', offerId: 'off_made_up_1' });
    expect(stray.statusCode).toBe(409);
    expect(stray.json()).toEqual({
      error: 'CONFLICT',
      message: "Offer off_made_up_1 is not among this mission's candidates; vote on the offers it proposed",
    });
    expect((await send(mId, { eventType: 'USER_LIKED_ITEM', offerId: 'off_c' })).statusCode).toBe(200);
    const mission = await app.ctx.missions.get(H, mId);
    expect(Object.keys(mission!.context.votes)).toEqual(['off_c']);
    expect((await stored(mId)).map((e) => e.data.offerId)).toEqual(['off_c']);
  });

  it(`keeps votes on at most ${MAX_VOTED_OFFERS} offers where there are no candidates; a changed vote is always taken`, async () => {
    const mId = await create('STYLE', 'summer tops under 80');
    const votes = Object.fromEntries(
      Array.from({ length: MAX_VOTED_OFFERS }, (_, i) => [`off_${i}`, { usr_other: 'like' as const }]),
    );
    await app.ctx.missions.update(mId, (m) => ({ ...m, context: { ...m.context, votes } }));
    const more = await send(mId, { eventType: 'USER_LIKED_ITEM', offerId: 'off_one_more' });
    expect(more.statusCode).toBe(409);
    expect(more.json()).toEqual({
      error: 'CONFLICT',
      message: `This mission already has votes on ${MAX_VOTED_OFFERS} offers, the most it keeps`,
    });
    const again = await send(mId, {
      eventType: 'USER_DISLIKED_ITEM',
      offerId: 'off_7',
      reason: 'changed my mind',
    });
    expect(again.statusCode).toBe(200);
    const mission = await app.ctx.missions.get(H, mId);
    expect(Object.keys(mission!.context.votes)).toHaveLength(MAX_VOTED_OFFERS);
    expect(mission!.context.votes.off_7).toEqual({ usr_other: 'like', [OWNER]: 'dislike' });
  });
});

describe('forwarded browser event payload', () => {
  const forward = (missionId: string, payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/internal/browser/events',
      headers: { 'x-internal-token': TOKEN },
      payload: { missionId, sessionId: 'bs_test1', type: 'PAGE_NAVIGATED', payload },
    });
  const browserEvents = async (mId: string) =>
    (await app.ctx.events.after(mId, 0, 10_000)).filter((e) => e.type === 'browser.event');

  it('refuses a payload over 4096 bytes or 20 keys with 422 VALIDATION_ERROR and keeps nothing of it', async () => {
    const mId = await create('INTERACTIVE', 'open https://shop.example/item');
    const big = await forward(mId, { html: 'x'.repeat(5000) });
    expect(big.statusCode).toBe(422);
    expect(big.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [{ loc: ['body', 'payload'], msg: 'must be at most 4096 bytes as JSON', type: 'custom' }],
    });
    const manyKeys = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    expect((await forward(mId, manyKeys)).json().details).toEqual([
      { loc: ['body', 'payload'], msg: 'must have at most 20 keys', type: 'custom' },
    ]);
    expect(await browserEvents(mId)).toEqual([]);
    const url = `https://shop.example/p?q=${'a'.repeat(2000)}`;
    expect((await forward(mId, { url })).statusCode).toBe(200);
    expect((await browserEvents(mId)).map((e) => e.data.payload)).toEqual([{ url }]);
  });
});
