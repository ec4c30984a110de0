import type { StreamEvent } from '@hs/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sseFrame } from '../src/domain/stream-frame.ts';
import { as, buildTestApp, createMission, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

/** What a stream client reads of a stored event: its SSE frame's data. */
const frameData = (event: StreamEvent) => JSON.parse(sseFrame(event).split('\ndata: ')[1]!);

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
const M = `/api/v1/households/${H}/orchestrator/missions`;

beforeAll(async () => {
  peers = await startFakePeers();
});
afterAll(async () => peers.close());
beforeEach(async () => {
  peers.calls.length = 0;
  peers.audit.length = 0;
  peers.artifacts.length = 0;
  peers.behaviour.clear();
  peers.requests.clear();
  app = await buildTestApp(peers.url);
});

const create = (mission_type: string, initial_message: string, user = OWNER) =>
  createMission(app, mission_type, initial_message, user);
const chat = (mId: string, message: string, user = OWNER, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `${M}/${mId}/chat`, headers: as(user, headers), payload: { message } });

describe('STYLE missions', () => {
  it('runs the first turn at creation: wardrobe and offers with the constraints the user gave', async () => {
    const m = await create('STYLE', 'Summer tops under 80 EUR please');
    expect(m).toMatchObject({ mission_type: 'STYLE', state: 'RUNNING', owner_id: OWNER, household_id: H });
    expect(m.mission_id).toMatch(/^msn_/);
    expect(m.history).toHaveLength(2);
    const [user, model] = m.history;
    expect(user).toMatchObject({
      role: 'user',
      content: 'Summer tops under 80 EUR please',
      tool_calls: null,
      source: 'text',
    });
    expect(user.id).toMatch(/^msg_/);
    expect(model.role).toBe('model');
    expect(model.tool_calls.map((c: { tool: string }) => c.tool)).toEqual([
      'list_wardrobe',
      'search_commerce',
    ]);
    expect(model.tool_calls[1].args).toEqual({
      limit: 3,
      maxPrice: 80,
      currency: 'EUR',
      season: 'SUMMER',
      category: 'TOP',
    });
    expect(model.tool_calls[1].result.items[0]).toEqual({
      offerId: 'off_a',
      title: 'Linen shirt',
      price: 45,
      currency: 'EUR',
      url: 'https://shop.example/a',
    });
    expect(model.content).toContain('Linen shirt (45 EUR)');
    // Each suggestion says why it fits the brief.
    expect(model.content).toContain('1) Linen shirt (45 EUR): under 80, wearable all year.');
    expect(m.brief).toEqual({
      itemKinds: ['top'],
      categories: ['TOP'],
      maxPrice: 80,
      currency: 'EUR',
      seasons: ['SUMMER'],
    });
    expect(m.plan).toEqual([
      { step: 'Review the household wardrobe', status: 'DONE' },
      { step: 'Search matching offers', status: 'DONE' },
    ]);
    const search = peers.calls.find((c) => c.url === '/api/v1/search')!;
    expect(search.body).toMatchObject({ householdId: H, maxPrice: 80 });
    expect(search.headers['x-internal-token']).toBe('dev-internal-token-commerce');
    expect(search.headers['x-user-id']).toBe(OWNER);
    expect(peers.audit.map((a) => [a.category, a.action, (a.detail as { tool?: string }).tool])).toEqual([
      ['MISSION_LIFECYCLE', 'MISSION_CREATED', undefined],
      ['TOOL_CALL', 'TOOL_CALLED', 'list_wardrobe'],
      ['TOOL_CALL', 'TOOL_CALLED', 'search_commerce'],
    ]);
    expect(peers.artifacts[0]).toMatchObject({
      kind: 'mission-plan',
      body: {
        missionType: 'STYLE',
        constraints: { maxPrice: 80, currency: 'EUR', season: 'SUMMER', categories: ['TOP'] },
      },
    });
    const again = (
      await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(again.artifacts).toEqual([
      { artifact_id: 'art_1', type: 'MissionPlan', created_at: expect.any(String) },
    ]);
  });

  it('reports a peer that is down as a tool error and still answers', async () => {
    peers.behaviour.set('/search', 'down');
    const m = await create('STYLE', 'black jeans');
    const calls = m.history[1].tool_calls;
    expect(calls[1].result).toEqual({
      // Which part is not working, not which internal service failed how.
      error: { code: 'UPSTREAM_ERROR', message: 'The shop search is not working right now' },
    });
    expect(m.history[1].content).toContain("I couldn't search offers for");
    expect(peers.audit.at(-1)).toMatchObject({
      action: 'TOOL_CALLED',
      severity: 'WARNING',
      detail: expect.objectContaining({ tool: 'search_commerce' }),
    });
  });

  it('reports a busy peer (503 with Retry-After) as unavailable for a moment, not as broken', async () => {
    peers.behaviour.set('/search', 'busy');
    const m = await create('STYLE', 'black jeans');
    expect(m.history[1].tool_calls[1].result).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The shop search is unavailable for a moment' },
    });
  });

  it('lists only the caller’s missions, newest first, and hides other households', async () => {
    const a = await create('STYLE', 'first');
    const b = await create('STYLE', 'second');
    await create('STYLE', 'not mine', 'usr_other');
    const list = (await app.inject({ method: 'GET', url: M, headers: as(OWNER) })).json();
    expect(list.map((m: { mission_id: string }) => m.mission_id)).toEqual([b.mission_id, a.mission_id]);
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_2/orchestrator/missions/${a.mission_id}`,
      headers: as(OWNER),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
    const foreignChat = await app.inject({
      method: 'POST',
      url: `/api/v1/households/h_2/orchestrator/missions/${a.mission_id}/chat`,
      headers: as(OWNER),
      payload: { message: 'hi' },
    });
    expect(foreignChat.statusCode).toBe(404);
  });
});

describe('the access read of a mission', () => {
  it('answers who owns it, its type and state, not its history, to whoever may read the mission', async () => {
    const m = await create('STYLE', 'Summer tops under 80 EUR please');
    const access = await app.inject({
      method: 'GET',
      url: `${M}/${m.mission_id}/access`,
      headers: as(OWNER),
    });
    expect(access.statusCode).toBe(200);
    expect(access.json()).toEqual({
      mission_id: m.mission_id,
      household_id: H,
      owner_id: OWNER,
      mission_type: 'STYLE',
      state: 'RUNNING',
    });
    const stranger = await app.inject({
      method: 'GET',
      url: `${M}/${m.mission_id}/access`,
      headers: as('usr_other'),
    });
    expect(stranger.statusCode).toBe(403);
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_2/orchestrator/missions/${m.mission_id}/access`,
      headers: as(OWNER),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
    const poll = await create('POLL', 'Which jacket for the trip?');
    const voter = await app.inject({
      method: 'GET',
      url: `${M}/${poll.mission_id}/access`,
      headers: as('usr_other'),
    });
    expect(voter.json()).toMatchObject({ mission_type: 'POLL', owner_id: OWNER });
  });
});

describe('chat rules', () => {
  it('refuses bad input, strangers, ended missions and a second concurrent turn', async () => {
    const m = await create('STYLE', 'hello');
    expect((await chat(m.mission_id, '   ')).statusCode).toBe(422);
    const long = await chat(m.mission_id, 'x'.repeat(8193));
    expect(long.statusCode).toBe(422);
    expect(long.json()).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ loc: ['body', 'message'] }] });
    expect((await chat(m.mission_id, 'é'.repeat(4096))).statusCode).toBe(200);
    const stranger = await chat(m.mission_id, 'hi', 'usr_other');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the owner of the mission can chat with it',
    });
    expect((await chat('msn_nope', 'hi')).json()).toEqual({
      error: 'NOT_FOUND',
      message: 'Mission not found',
    });

    peers.behaviour.set('/search', 300);
    const [first, second] = await Promise.all([
      chat(m.mission_id, 'shoes'),
      new Promise((r) => setTimeout(r, 50)).then(() => chat(m.mission_id, 'hats')),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'CONFLICT',
      message: 'A turn is already running for this mission; wait for it to finish',
    });

    const done = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/complete`,
      headers: as(OWNER),
    });
    expect(done.json().state).toBe('DONE');
    const after = await chat(m.mission_id, 'more?');
    expect(after.statusCode).toBe(409);
    expect(after.json()).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it accepts no more messages',
    });
    const twice = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/cancel`,
      headers: as(OWNER),
    });
    expect(twice.json()).toEqual({ error: 'INVALID_STATE', message: 'Mission is already DONE' });
  });

  it('lets only the owner end a mission; cancel ends it FAILED with transcript and summary', async () => {
    const m = await create('STYLE', 'a summer top');
    const stranger = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/cancel`,
      headers: as('usr_other'),
    });
    expect(stranger.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the owner of the mission can end it',
    });
    const cancelled = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/cancel`,
      headers: as(OWNER),
    });
    expect(cancelled.json().state).toBe('FAILED');
    expect(peers.artifacts.map((a) => a.kind)).toEqual(['mission-plan', 'transcript', 'outcome-summary']);
    expect(peers.artifacts[2]!.body).toMatchObject({ finalState: 'FAILED', totalTurns: 1, toolCallsMade: 2 });
    expect(peers.audit.at(-1)).toMatchObject({ category: 'MISSION_LIFECYCLE', action: 'MISSION_CANCELLED' });
    const view = (
      await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(view.artifacts.map((a: { type: string }) => a.type)).toEqual([
      'MissionPlan',
      'Transcript',
      'OutcomeSummary',
    ]);
  });

  it("reports an artifact it did not write in the mission's slot, and does not take it as its own", async () => {
    const m = await create('STYLE', 'hello');
    peers.artifacts.push({ kind: 'transcript', body: { missionId: m.mission_id }, key: 'someone-else' });
    await app.inject({ method: 'POST', url: `${M}/${m.mission_id}/complete`, headers: as(OWNER) });
    const conflict = peers.audit.find((e) => e.action === 'ARTIFACT_CONFLICT');
    expect(conflict).toMatchObject({
      category: 'SYSTEM',
      severity: 'CRITICAL',
      missionId: m.mission_id,
      detail: { type: 'Transcript' },
    });
    const view = (
      await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(view.artifacts.map((a: { type: string }) => a.type)).toEqual(['MissionPlan', 'OutcomeSummary']);
  });

  it('sends its own key with each artifact, so a retry of a write that landed counts as written', async () => {
    const m = await create('STYLE', 'hello');
    const plan = peers.calls.find((c) => c.url.endsWith('/artifacts/mission-plan'))!;
    expect(plan.headers['idempotency-key']).toBe(`orchestrator.${m.mission_id}.mission-plan`);
    await app.ctx.artifacts.outbox!.send(`${m.mission_id}.mission-plan.retry`, {
      householdId: H,
      missionId: m.mission_id,
      kind: 'mission-plan',
      body: { missionId: m.mission_id },
    });
    await app.ctx.artifacts.outbox!.drain();
    expect(peers.audit.some((e) => e.action === 'ARTIFACT_CONFLICT')).toBe(false);
    expect(peers.artifacts.filter((a) => a.kind === 'mission-plan')).toHaveLength(1);
  });

  it('"done" makes the agent conclude the mission; voice turns are marked', async () => {
    const m = await create('STYLE', 'hello');
    const res = await chat(m.mission_id, '  Done ', OWNER, { 'x-message-source': 'voice' });
    const view = res.json();
    expect(view.state).toBe('DONE');
    expect(view.history.at(-2)).toMatchObject({ role: 'user', source: 'voice' });
    expect(view.history.at(-1).tool_calls).toEqual([
      { tool: 'complete_mission', args: {}, result: { state: 'DONE' } },
    ]);
    const transcript = peers.artifacts.find((a) => a.kind === 'transcript')!;
    expect((transcript.body.entries as Array<{ source: string }>).map((e) => e.source)).toEqual([
      'text',
      'text',
      'voice',
      'voice',
    ]);
  });

  it('a turn whose process died (expired lease) no longer blocks the mission', async () => {
    const m = await create('STYLE', 'hello');
    await app.ctx.missions.update(m.mission_id, (doc) => ({
      ...doc,
      turn_lease: { turn_id: 'turn_dead', expires_at: Date.now() + 60_000 },
    }));
    expect((await chat(m.mission_id, 'hi')).statusCode).toBe(409);
    await app.ctx.missions.update(m.mission_id, (doc) => ({
      ...doc,
      turn_lease: { turn_id: 'turn_dead', expires_at: Date.now() - 1 },
    }));
    const res = await chat(m.mission_id, 'hi again');
    expect(res.statusCode).toBe(200);
    const events = await app.ctx.events.after(m.mission_id, 0);
    expect(events.find((e) => e.type === 'turn.failed')!.data).toEqual({
      turn_id: 'turn_dead',
      code: 'TURN_INTERRUPTED',
      message: 'The previous turn was interrupted before it finished',
    });
  });

  it('writes artifacts later when artifacts-audit was down', async () => {
    peers.behaviour.set('/artifacts/', 'down');
    const m = await create('STYLE', 'hello');
    expect(m.artifacts).toEqual([]);
    peers.behaviour.clear();
    const outbox = app.ctx.artifacts.outbox!;
    expect(await outbox.pending()).toBe(1);
    // The first retry is due after its backoff (about half a second).
    await vi.waitFor(async () => expect(await outbox.drain()).toBe(1), { timeout: 3000, interval: 100 });
    const view = (
      await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(view.artifacts.map((a: { type: string }) => a.type)).toEqual(['MissionPlan']);
  });
});

describe('POLL missions', () => {
  it('proposes candidates, tallies votes per member and names the winner', async () => {
    const m = await create('POLL', 'summer looks under 50 EUR for the family');
    expect(m.history[1].content).toBe(
      "Here are 3 candidates for the household to vote on: 1) Linen shirt (45 EUR), 2) Denim shorts (30 EUR), 3) Straw hat (19.5 EUR). Like or dislike them; I'll report the standing.",
    );
    const vote = (user: string, payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `${M}/${m.mission_id}/events`, headers: as(user), payload });
    const ack = await vote('usr_kid', { eventType: 'USER_LIKED_ITEM', offerId: 'off_b' });
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toEqual({ accepted: true, missionId: m.mission_id, eventType: 'USER_LIKED_ITEM' });
    await vote(OWNER, { eventType: 'USER_LIKED_ITEM', offerId: 'off_b' });
    await vote(OWNER, { eventType: 'USER_LIKED_ITEM', offerId: 'off_a' });
    await vote('usr_kid', { eventType: 'USER_DISLIKED_ITEM', offerId: 'off_a', reason: 'itchy' });
    const standing = (await chat(m.mission_id, 'how does it look?')).json();
    expect(standing.history.at(-1).content).toBe(
      'Standing: Denim shorts: 2 likes, 0 dislikes (leading); Linen shirt: 1 like, 1 dislike; Straw hat: no votes yet.',
    );
    expect(standing.history.at(-1).tool_calls).toEqual([]);
    const done = (await chat(m.mission_id, 'done')).json();
    expect(done.history.at(-1).content).toBe(
      'Mission complete. The household picked Denim shorts (2 likes).',
    );
    const summary = peers.artifacts.find((a) => a.kind === 'outcome-summary')!.body;
    expect(summary.keyDecisions).toContain('Winner: Denim shorts (off_b) with 2 likes and 0 dislikes');
    expect(summary.resultItems).toContainEqual({
      kind: 'poll_candidate',
      offerId: 'off_b',
      title: 'Denim shorts',
      likes: 2,
      dislikes: 0,
      winner: true,
    });
  });
});

describe('POLL missions and the brief', () => {
  it('keep what was asked across turns: a new colour searches again within the same budget and season', async () => {
    const m = await create('POLL', 'summer looks under 50 EUR for the family');
    expect(m.brief).toMatchObject({ maxPrice: 50, currency: 'EUR', seasons: ['SUMMER'] });
    const blue = (await chat(m.mission_id, 'only blue ones')).json();
    expect(blue.brief).toMatchObject({ maxPrice: 50, seasons: ['SUMMER'], colors: ['blue'] });
    expect(blue.history.at(-1).tool_calls[0]).toMatchObject({
      tool: 'search_commerce',
      args: { maxPrice: 50, currency: 'EUR', season: 'SUMMER', colors: ['blue'], limit: 4 },
    });
    const standing = (await chat(m.mission_id, 'how are the votes?')).json();
    expect(standing.history.at(-1).tool_calls).toEqual([]);
    expect(standing.brief).toEqual(blue.brief);
  });
});

describe('POLL vote with a hostile body', () => {
  it('refuses metadata nested 1000 deep with 400 and counts nothing: no vote, no event, no audit entry', async () => {
    const m = await create('POLL', 'summer looks under 50 EUR for the family');
    const eventsBefore = (await app.ctx.events.after(m.mission_id, 0)).length;
    await app.ctx.audit.outbox?.drain();
    const auditBefore = peers.audit.length;
    const metadata = `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`;
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/events`,
      headers: { ...as(OWNER), 'content-type': 'application/json' },
      payload: `{"eventType":"USER_LIKED_ITEM","offerId":"off_b","metadata":${metadata}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'BAD_REQUEST', message: 'JSON is nested deeper than 64 levels' });
    expect((await app.ctx.events.after(m.mission_id, 0)).length).toBe(eventsBefore);
    await app.ctx.audit.outbox?.drain();
    expect(peers.audit.length).toBe(auditBefore);
    const standing = (await chat(m.mission_id, 'how does it look?')).json();
    expect(standing.history.at(-1).content).toBe(
      'Standing: Linen shirt: no votes yet; Denim shorts: no votes yet; Straw hat: no votes yet. No clear favourite yet.',
    );
  });
});

describe('client events', () => {
  it('validates per event type with 400 and applies the mission rules', async () => {
    const m = await create('STYLE', 'hello');
    const send = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `${M}/${m.mission_id}/events`, headers: as(OWNER), payload });
    const missing = await send({ eventType: 'USER_LIKED_ITEM' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [{ loc: ['body', 'offerId'], msg: 'is required for USER_LIKED_ITEM', type: 'custom' }],
    });
    expect((await send({ eventType: 'USER_DISLIKED_ITEM', offerId: 'off_a' })).json().details[0].loc).toEqual(
      ['body', 'reason'],
    );
    expect((await send({ eventType: 'USER_TAKEOVER_START' })).statusCode).toBe(400);
    const unknown = await send({ eventType: 'USER_DANCED' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('VALIDATION_ERROR');
    const takeover = await send({ eventType: 'USER_TAKEOVER_START', sessionId: 'bs_1' });
    expect(takeover.statusCode).toBe(409);
    expect(takeover.json()).toEqual({
      error: 'INVALID_MISSION_TYPE',
      message: 'USER_TAKEOVER_START needs an INTERACTIVE mission; this one is STYLE',
    });
    // A purchase signal naming a request follows its action: one still waiting is refused.
    const early = await send({ eventType: 'USER_CONFIRMED_FINAL_CHECKOUT', requestId: 'pr_approved' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      error: 'CONFLICT',
      message:
        'Purchase request pr_approved is APPROVED: USER_CONFIRMED_FINAL_CHECKOUT follows its completed checkout (POST .../confirm-checkout)',
    });
    const pending = await send({ eventType: 'USER_APPROVED_REQUEST', requestId: 'pr_1' });
    expect(pending.statusCode).toBe(409);
    expect((await send({ eventType: 'USER_APPROVED_REQUEST', requestId: 'pr_missing' })).statusCode).toBe(
      404,
    );
    expect(
      (await send({ eventType: 'USER_CONFIRMED_FINAL_CHECKOUT', requestId: 'pr_done' })).statusCode,
    ).toBe(200);
    expect(
      (await send({ eventType: 'USER_APPROVED_REQUEST', requestId: 'pr_approved' })).json().accepted,
    ).toBe(true);
    // The stream shows the event as recorded (camelCase), with the sender under both spellings.
    const shown = (await app.ctx.events.after(m.mission_id, 0)).filter((e) => e.type === 'client.event');
    expect(shown.map(frameData)).toEqual([
      {
        eventType: 'USER_CONFIRMED_FINAL_CHECKOUT',
        requestId: 'pr_done',
        memberId: OWNER,
        member_id: OWNER,
        missionId: m.mission_id,
        at: expect.any(String),
      },
      {
        eventType: 'USER_APPROVED_REQUEST',
        requestId: 'pr_approved',
        memberId: OWNER,
        member_id: OWNER,
        missionId: m.mission_id,
        at: expect.any(String),
      },
    ]);
    await app.inject({ method: 'POST', url: `${M}/${m.mission_id}/complete`, headers: as(OWNER) });
    const ended = await send({ eventType: 'USER_LIKED_ITEM', offerId: 'off_a' });
    expect(ended.statusCode).toBe(409);
    expect(ended.json()).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it accepts no more events',
    });
  });
});

describe('CARTPREP missions', () => {
  it('says approval is needed, dispatches an approved request and never exposes the checkout token', async () => {
    const m = await create('CARTPREP', 'please prepare pr_pending');
    expect(m.history[1].content).toBe(
      'Request "Rain jacket" (pr_pending) is waiting for approval: approval by a parent is needed before I can prepare the cart.',
    );
    const approved = (await chat(m.mission_id, 'now pr_approved')).json();
    expect(approved.history.at(-1).content).toBe(
      'Cart preparation for pr_approved has started (job cpj_1). I never buy: you confirm the final checkout yourself.',
    );
    expect(JSON.stringify(approved)).not.toContain('secret-token-never-shown');
    const intent = peers.calls.find((c) => c.url.endsWith('/purchase-intents'))!;
    expect(intent.headers['x-internal-token']).toBe('dev-internal-token-gateway');
    expect(intent.headers['x-user-id']).toBe(OWNER);
    // The next turn first checks the dispatched cart (this fake never moves pr_approved on).
    const missing = (await chat(m.mission_id, 'pr_missing')).json();
    const calls = missing.history.at(-1).tool_calls;
    expect(calls.map((c: { tool: string }) => c.tool)).toEqual(['check_cart', 'prepare_cart']);
    expect(calls[1].result).toEqual({
      error: { code: 'NOT_FOUND', message: 'Purchase request not found' },
    });
    expect((await chat(m.mission_id, 'what now?')).json().history.at(-1).content).toBe(
      'Tell me which approved purchase request to prepare: its id starts with pr_.',
    );
  });
});

describe('CARTPREP missions: how cart preparation went', () => {
  const read = () =>
    peers.calls.filter(
      (c) => c.method === 'GET' && c.url === `/api/v1/internal/households/${H}/requests/pr_flow`,
    );
  const last = (m: { history: Array<{ content: string; tool_calls: Array<{ tool: string }> }> }) =>
    m.history.at(-1)!;

  it('checks the dispatched cart on every later turn: preparing, failed, retried, ready, then stops', async () => {
    peers.requests.set('pr_flow', { status: 'APPROVED' });
    const m = await create('CARTPREP', 'prepare pr_flow');
    expect(last(m).content).toBe(
      'Cart preparation for pr_flow has started (job cpj_1). I never buy: you confirm the final checkout yourself.',
    );

    const preparing = (await chat(m.mission_id, 'any news?')).json();
    expect(last(preparing).tool_calls.map((c) => c.tool)).toEqual(['check_cart']);
    expect(last(preparing).content).toBe(
      'The cart for "Rain jacket" (pr_flow) is still being prepared (job cpj_1).',
    );
    const check = read().at(-1)!;
    expect(check.headers['x-internal-token']).toBe('dev-internal-token-gateway');
    expect(check.headers['x-user-id']).toBe(OWNER);

    // Cart-prep failed: the gateway moved the request back to APPROVED with the failure.
    peers.requests.set('pr_flow', {
      status: 'APPROVED',
      cartprepJobId: 'cpj_1',
      lastFailure: {
        jobId: 'cpj_1',
        errorCode: 'SIZE_UNAVAILABLE',
        message: 'The requested size is out of stock (simulated)',
        at: '2026-01-01T00:00:00.000Z',
      },
    });
    const failed = (await chat(m.mission_id, 'and now?')).json();
    expect(last(failed).content).toBe(
      'Cart preparation for "Rain jacket" (pr_flow) failed: the size is out of stock. The approval still stands, so it can be tried again. Say "retry" and I\'ll try again.',
    );
    expect(last(failed).tool_calls).toEqual([
      expect.objectContaining({
        tool: 'check_cart',
        args: { requestId: 'pr_flow' },
        result: expect.objectContaining({ outcome: 'FAILED', status: 'APPROVED' }),
      }),
    ]);

    // Settled: the failure is reported once; "retry" dispatches again without another check.
    const reads = read().length;
    const retried = (await chat(m.mission_id, 'retry')).json();
    expect(read().length).toBe(reads + 1); // prepare_cart's own read, no check
    expect(last(retried).tool_calls.map((c) => c.tool)).toEqual(['prepare_cart']);
    expect(last(retried).content).toBe(
      'Cart preparation for pr_flow has started again (job cpj_2). I never buy: you confirm the final checkout yourself.',
    );

    peers.requests.set('pr_flow', {
      status: 'CART_READY',
      cartprepJobId: 'cpj_2',
      cart: {
        items: [
          { title: 'Rain jacket', size: 'M', quantity: 1, unitPrice: 80 },
          { title: 'Rain hat', size: null, quantity: 2, unitPrice: 10 },
        ],
        subtotal: 100,
        currency: 'EUR',
        merchantDomain: 'shop.example.com',
        checkoutUrl: 'https://shop.example.com/checkout',
      },
    });
    const ready = (await chat(m.mission_id, 'ready yet?')).json();
    expect(last(ready).content).toBe(
      'The cart for "Rain jacket" (pr_flow) is ready: 3 items, 100.00 EUR at shop.example.com. Confirm the checkout in the app: ask for a confirmation token there.',
    );
    const after = read().length;
    const quiet = (await chat(m.mission_id, 'thanks')).json();
    expect(read().length).toBe(after);
    expect(last(quiet).content).toBe(
      'Tell me which approved purchase request to prepare: its id starts with pr_.',
    );

    const view = (
      await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(JSON.stringify(view)).not.toContain('secret-token-never-shown');
    expect(JSON.stringify(view).toLowerCase()).not.toContain('confirmationtoken');
    expect(view.plan.map((p: { step: string }) => p.step)).toContain('Check on the cart preparation');
    const done = (await chat(m.mission_id, 'done')).json();
    expect(done.state).toBe('DONE');
  });
});

describe('INTERACTIVE missions and browser events', () => {
  const internal = (payload: Record<string, unknown>, token?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/internal/browser/events',
      headers: token ? { 'x-internal-token': token } : {},
      payload,
    });

  it('opens a bridge session and takes bridge events for INTERACTIVE missions only', async () => {
    const m = await create('INTERACTIVE', 'open https://shop.example/item');
    expect(m.history[1].tool_calls[0]).toMatchObject({
      tool: 'create_browser_session',
      args: { startUrl: 'https://shop.example/item' },
      result: { sessionId: 'bs_test1', status: 'ACTIVE' },
    });
    const bridgeCall = peers.calls.find((c) => c.url === '/api/v1/sessions')!;
    expect(bridgeCall.body).toEqual({
      householdId: H,
      missionId: m.mission_id,
      startUrl: 'https://shop.example/item',
    });
    expect(bridgeCall.headers['x-internal-token']).toBe('dev-internal-token-browser-bridge');
    // The bridge makes the caller the session's owner: the turn is always the mission owner's.
    expect(bridgeCall.headers['x-user-id']).toBe(OWNER);
    const again = (await chat(m.mission_id, 'what now?')).json();
    expect(again.history.at(-1).content).toBe(
      'Browser session bs_test1 is open. Take over to drive it yourself, or say done to finish.',
    );

    const event = {
      missionId: m.mission_id,
      sessionId: 'bs_test1',
      type: 'PAGE_LOADED',
      payload: { url: 'x' },
    };
    for (const token of [undefined, 'wrong']) {
      const refused = await internal(event, token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Missing or invalid internal event token',
      });
    }
    const ok = await internal(event, 'dev-internal-token-orchestrator');
    expect(ok.json()).toEqual({ accepted: true, missionId: m.mission_id, eventType: 'PAGE_LOADED' });
    const stored = await app.ctx.events.after(m.mission_id, 0);
    expect(stored.at(-1)?.type).toBe('browser.event');
    expect(frameData(stored.at(-1)!)).toMatchObject({
      sessionId: 'bs_test1',
      session_id: 'bs_test1',
      type: 'PAGE_LOADED',
    });

    const takeover = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/events`,
      headers: as(OWNER),
      payload: { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_test1' },
    });
    expect(takeover.json().accepted).toBe(true);

    const style = await create('STYLE', 'hello');
    const wrongType = await internal(
      { ...event, missionId: style.mission_id },
      'dev-internal-token-orchestrator',
    );
    expect(wrongType.statusCode).toBe(409);
    expect(wrongType.json()).toEqual({
      error: 'INVALID_MISSION_TYPE',
      message: 'Browser events need an INTERACTIVE mission; this one is STYLE',
    });
    expect(
      (await internal({ ...event, missionId: 'msn_nope' }, 'dev-internal-token-orchestrator')).statusCode,
    ).toBe(404);
  });

  it('REQUIRE_INTERNAL_EVENT_TOKEN=false (dev only) accepts unauthenticated bridge events', async () => {
    app = await buildTestApp(peers.url, { env: { REQUIRE_INTERNAL_EVENT_TOKEN: 'false' } });
    const m = await create('INTERACTIVE', 'open a browser');
    expect(
      (await internal({ missionId: m.mission_id, sessionId: 'bs_test1', type: 'CLICK' })).statusCode,
    ).toBe(200);
  });
});
