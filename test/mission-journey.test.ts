// Issue 5 "Done when", as a user sees it: through the gateway a family creates each of the four
// mission types, chats, sees tool calls with their results, streams the events live and after a
// reconnect, sends client events, holds a voice turn, ends the mission, and finds its artifacts
// and audit trail. Real service processes on loopback, the embedded sqlite store.
import { createHmac } from 'node:crypto';
import type { components, operations } from '@hs/client';
import type { ReceivedStreamEvent as StreamEvent } from '@hs/contracts';
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  atGateway,
  eventually,
  type JourneyClient,
  type Json,
  journeyClient,
  reply,
  type StreamOptions,
  type User,
  voiceTurn,
} from './journey-client.ts';

let stack: RunningStack;
let client: JourneyClient;
let parent: User;
let adult: User;
let outsider: User;
let householdId: string;
let outsiderHouseholdId: string;
const offers: Record<string, string> = {};
const items: Record<string, string> = {};

const BRIDGE_TOKEN = 'dev-internal-token-browser-bridge';
const SIGNING_SECRET = `whsec_${Buffer.from('journey-extension-signing-key-32b').toString('base64')}`;

/**
 * What the browser extension sends: a Standard Webhooks signed event, straight to the bridge (not
 * an operation of the gateway's public API, so not through @hs/client).
 */
const extensionEvent = (body: Record<string, unknown>, signed = true) => {
  const raw = JSON.stringify(body);
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const key = Buffer.from(SIGNING_SECRET.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
  return fetch(`${stack.url('browser-bridge')}/api/v1/browser/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signed
        ? { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` }
        : {}),
    },
    body: raw,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
};

beforeAll(async () => {
  stack = await startStack({
    services: [
      'gateway',
      'orchestrator',
      'wardrobe',
      'commerce',
      'cartprep',
      'browser-bridge',
      'artifacts-audit',
    ],
    durable: true,
    perService: {
      orchestrator: { ORCHESTRATOR_STREAM_POLL_MS: '50', ORCHESTRATOR_SSE_RETRY_MS: '300' },
      cartprep: { CARTPREP_POLL_MS: '50' },
      'browser-bridge': {
        BROWSER_ENFORCE_EVENT_SIGNATURES: 'true',
        BROWSER_EVENT_SIGNING_SECRET: SIGNING_SECRET,
      },
    },
  });
  client = journeyClient(stack.url('gateway'));
  [parent, adult, outsider] = await Promise.all([
    client.login('journey-parent@family.test'),
    client.login('journey-adult@family.test'),
    client.login('journey-outsider@other.test'),
  ]);
  householdId = await client.household(parent, 'Journey family', [[adult, 'ADULT']]);
  outsiderHouseholdId = await client.household(outsider, 'Neighbours');

  // The wardrobe and offers the stylist's tools will find.
  const household = { params: { path: { id: householdId } } };
  const wardrobe: Record<
    string,
    operations['createWardrobeItem']['requestBody']['content']['application/json']
  > = {
    linenTop: { category: 'TOP', brand: 'Linen & Co', colors: ['blue'], season: ['SUMMER'] },
    chinos: { category: 'BOTTOM', brand: 'Chino Lab', colors: ['beige'], season: ['SUMMER'] },
    coat: { category: 'OUTERWEAR', brand: 'Wool Works', colors: ['black'], season: ['WINTER'] },
  };
  for (const [key, item] of Object.entries(wardrobe)) {
    const res = reply(
      await as(parent).POST('/api/v1/households/{id}/wardrobe/items', { ...household, body: item }),
    );
    expect(res.status).toBe(201);
    items[key] = res.body.itemId;
  }
  const shop: Record<string, Omit<components['schemas']['CreateOfferRequest'], 'url' | 'currency'>> = {
    shirt: { title: 'Blue linen shirt', price: 45, category: 'TOP', season: ['SUMMER'], colors: ['blue'] },
    blouse: { title: 'Silk blouse', price: 95, category: 'TOP', season: ['SUMMER'], colors: ['white'] },
    parka: { title: 'Wool parka', price: 180, category: 'OUTERWEAR', season: ['WINTER'], colors: ['black'] },
  };
  for (const [key, offer] of Object.entries(shop)) {
    const res = reply(
      await as(parent).POST('/api/v1/households/{id}/offers', {
        ...household,
        body: { ...offer, url: `https://shop.zalando.de/${key}`, currency: 'EUR', sizes: ['S', 'M', 'L'] },
      }),
    );
    expect(res.status).toBe(201);
    offers[key] = res.body.offerId;
  }
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const as = (user: User) => client.as(user);
type MissionType = components['schemas']['CreateMissionRequest']['mission_type'];
type ClientEvent = operations['postMissionEvent']['requestBody']['content']['application/json'];
const MISSIONS = '/api/v1/households/{id}/orchestrator/missions';
const MISSION = '/api/v1/households/{id}/orchestrator/missions/{mId}';
const CHAT = '/api/v1/households/{id}/orchestrator/missions/{mId}/chat';
const VOICE = '/api/v1/households/{id}/orchestrator/missions/{mId}/voice-session';
const STREAM = '/api/v1/households/{id}/orchestrator/missions/{mId}/stream';
const ARTIFACTS = '/api/v1/households/{id}/missions/{mId}/artifacts';
const AUDIT = '/api/v1/households/{id}/missions/{mId}/audit';
const ARTIFACT = '/api/v1/households/{id}/artifacts/{artifactId}';

/** A mission's path parameters, in our household unless another is named. */
const at = (mId: string, id = householdId) => ({ params: { path: { id, mId } } });
const createMission = async (user: User, mission_type: MissionType, initial_message: string) =>
  reply(
    await as(user).POST(MISSIONS, {
      params: { path: { id: householdId } },
      body: { mission_type, initial_message },
    }),
  );
const chat = async (user: User, mId: string, message: string) =>
  reply(await as(user).POST(CHAT, { ...at(mId), body: { message } }));
const clientEvent = async (user: User, mId: string, body: ClientEvent, id = householdId) =>
  reply(
    await as(user).POST('/api/v1/households/{id}/orchestrator/missions/{mId}/events', {
      ...at(mId, id),
      body,
    }),
  );
const getMission = async (user: User, mId: string, id = householdId) =>
  reply(await as(user).GET(MISSION, at(mId, id)));
const complete = async (user: User, mId: string) =>
  reply(await as(user).POST('/api/v1/households/{id}/orchestrator/missions/{mId}/complete', at(mId)));
const voiceSession = async (user: User, mId: string, id = householdId) =>
  reply(await as(user).POST(VOICE, at(mId, id)));
const lastModel = (view: Json) => view.history.filter((m: Json) => m.role === 'model').at(-1);
const streamOf = (user: User, mId: string, options?: StreamOptions) =>
  client.stream(user, { id: householdId, mId }, options);

/** The artifacts of an ended mission, once the orchestrator's outbox delivered all three. */
/** A mission's artifacts as its owner (who alone reads them, but for a POLL mission) sees them. */
const missionArtifacts = async (mId: string, owner: User = parent) =>
  (
    await eventually(
      async () => reply(await as(owner).GET(ARTIFACTS, at(mId))),
      (r) => r.status === 200 && r.body.length >= 3,
    )
  ).body;
const artifactOf = (list: Json[], type: string) => list.find((a) => a.type === type);

const seqs = (events: StreamEvent[]) => events.map((e) => e.seq);
const turnTypes = (events: StreamEvent[]) => events.map((e) => e.type);

describe('a STYLE mission, end to end', () => {
  let mId: string;

  it('finds real wardrobe items and offers with its tools, and records the calls with their results', async () => {
    const created = await createMission(parent, 'STYLE', 'Find me a summer top under 80 EUR');
    expect(created.status).toBe(201);
    const view = created.body;
    mId = view.mission_id;
    expect(view).toMatchObject({
      household_id: householdId,
      owner_id: parent.userId,
      mission_type: 'STYLE',
      state: 'RUNNING',
    });
    expect(view.history.map((m: Json) => [m.role, m.source])).toEqual([
      ['user', 'text'],
      ['model', 'text'],
    ]);
    expect(view.history[0].tool_calls).toBeNull();

    const calls = lastModel(view).tool_calls;
    // The stylist reads the wardrobe, searches, then pairs what it found with the wardrobe.
    expect(calls.map((c: Json) => c.tool)).toEqual([
      'list_wardrobe',
      'search_commerce',
      'pair_with_wardrobe',
    ]);
    const [wardrobe, search] = calls;
    expect(wardrobe.args).toEqual({ category: 'TOP', season: 'SUMMER' });
    expect(wardrobe.result.items.map((i: Json) => i.itemId)).toEqual([items.linenTop]);
    expect(search.args).toMatchObject({ maxPrice: 80, currency: 'EUR', season: 'SUMMER', category: 'TOP' });
    expect(search.result.items.map((o: Json) => o.offerId)).toEqual([offers.shirt]);
    expect(lastModel(view).content).toContain('Blue linen shirt (45 EUR)');
    expect(lastModel(view).content).toContain('Linen & Co');
    expect(view.plan.length).toBeGreaterThan(0);
    expect(view.plan.every((s: Json) => s.status === 'DONE')).toBe(true);
  });

  it('streams a turn live through the gateway, and after a reconnect exactly the events missed', async () => {
    const live = streamOf(parent, mId);
    // The first turn is replayed from the store.
    await live.waitFor((es) => es.some((e) => e.type === 'turn.completed'));
    const replayed = live.events.length;

    const answered = await chat(parent, mId, 'Anything in blue, size M?');
    expect(answered.status).toBe(200);
    const events = await live.waitFor((es) => es.filter((e) => e.type === 'turn.completed').length === 2);
    const second = events.slice(replayed);
    expect(turnTypes(second)[0]).toBe('turn.started');
    expect(turnTypes(second).at(-1)).toBe('turn.completed');
    expect(turnTypes(second)).toEqual(expect.arrayContaining(['tool.call', 'tool.result', 'message']));
    expect(seqs(events)).toEqual(events.map((_, i) => i + 1)); // no gap, no repeat
    for (const e of events) expect(e.data).toMatchObject({ missionId: mId, at: expect.any(String) });
    const toolResult = second.find((e) => e.type === 'tool.result' && e.data.tool === 'search_commerce');
    expect(JSON.stringify(toolResult?.data)).toContain(offers.shirt);
    live.close();

    // The app was away during another turn; it comes back with the last id it saw.
    const seen = events.at(-1)!.seq;
    await chat(parent, mId, 'And something white?');
    const resumed = streamOf(parent, mId, { lastEventId: seen });
    const missed = await resumed.waitFor((es) => es.some((e) => e.type === 'turn.completed'));
    resumed.close();
    expect(resumed.connects[0]).toMatchObject({ 'last-event-id': String(seen) });
    expect(missed[0]!.seq).toBe(seen + 1);
    expect(turnTypes(missed)[0]).toBe('turn.started');
    expect(seqs(missed)).toEqual(missed.map((_, i) => seen + 1 + i));

    const garbled = reply(
      await as(parent).GET(STREAM, {
        params: { path: { id: householdId, mId }, header: { 'last-event-id': 'yesterday' } },
        parseAs: 'stream',
      }),
    );
    expect(garbled.status).toBe(400);
    expect(garbled.body).toEqual({
      error: 'BAD_REQUEST',
      message: 'Last-Event-ID must be a sequence number',
    });

    // `?after=` is the same resume point for clients that cannot set headers.
    const viaQuery = streamOf(parent, mId, { after: seen });
    const again = await viaQuery.waitFor((es) => es.some((e) => e.type === 'turn.completed'));
    viaQuery.close();
    expect(seqs(again).slice(0, missed.length)).toEqual(seqs(missed));
  });

  it('reconnects by itself with Last-Event-ID when the gateway restarts under an open stream', async () => {
    const stream = streamOf(parent, mId);
    await stream.waitFor((es) => es.filter((e) => e.type === 'turn.completed').length === 3);
    const before = stream.events.length;
    const lastSeen = stream.events.at(-1)!.seq;

    await stack.kill('gateway');
    await stack.start('gateway');
    const answered = await chat(parent, mId, 'Summer trousers maybe?');
    expect(answered.status).toBe(200);
    const events = await stream.waitFor((es) => es.filter((e) => e.type === 'turn.completed').length === 4);
    stream.close();

    expect(stream.connects.length).toBeGreaterThanOrEqual(2);
    expect(stream.connects.at(-1)).toMatchObject({ 'last-event-id': String(lastSeen) });
    expect(seqs(events)).toEqual(events.map((_, i) => i + 1)); // nothing lost, nothing twice
    expect(turnTypes(events.slice(before))[0]).toBe('turn.started');
  });

  it('streams its own turn when the chat asks for text/event-stream, ending with the MissionView', async () => {
    const res = await as(parent).POST(CHAT, {
      ...at(mId),
      body: { message: 'Maybe a tee under 30 EUR?' },
      headers: { accept: 'text/event-stream' },
      parseAs: 'text',
    });
    expect(res.response.status).toBe(200);
    expect(res.response.headers.get('content-type')).toBe('text/event-stream');
    const frames = (res.data ?? '')
      .split('\n\n')
      .map((block) =>
        Object.fromEntries(
          block
            .split('\n')
            .map((line) => [line.split(':')[0], line.slice(line.indexOf(':') + 1).trimStart()]),
        ),
      )
      .filter((f) => f.event);
    expect(frames[0]!.event).toBe('turn.started');
    expect(frames.at(-1)!.event).toBe('turn.completed');
    const completed = JSON.parse(frames.at(-1)!.data!);
    // The turn's result, not the whole mission; the reply came in the message event before it.
    const reply = JSON.parse(frames.find((f) => f.event === 'message')!.data!).message;
    expect(completed).toMatchObject({ state: 'RUNNING', missionId: mId, replyId: reply.id });
    expect(reply.content).toMatch(/Nothing match/);

    const tooLong = await chat(parent, mId, 'x'.repeat(8193));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error).toBe('VALIDATION_ERROR');
  });

  it("takes client events from the mission's owner and refuses the wrong ones (400, 403, 409)", async () => {
    const notTheirs = await clientEvent(adult, mId, { eventType: 'USER_LIKED_ITEM', offerId: offers.shirt });
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body).toEqual({
      error: 'FORBIDDEN',
      message: "Only the mission's owner can follow this mission (any member, for a POLL mission)",
    });
    const liked = await clientEvent(parent, mId, { eventType: 'USER_LIKED_ITEM', offerId: offers.shirt });
    expect(liked.status).toBe(200);
    expect(liked.body).toEqual({ accepted: true, missionId: mId, eventType: 'USER_LIKED_ITEM' });

    const noReason = await clientEvent(parent, mId, {
      eventType: 'USER_DISLIKED_ITEM',
      offerId: offers.blouse,
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [
        { loc: ['body', 'reason'], msg: 'is required for USER_DISLIKED_ITEM', type: expect.any(String) },
      ],
    });
    const unknown = await clientEvent(parent, mId, { eventType: 'USER_SHRUGGED' } as never); // deliberately unknown
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('VALIDATION_ERROR');

    const takeover = await clientEvent(parent, mId, { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_x' });
    expect(takeover.status).toBe(409);
    expect(takeover.body).toEqual({
      error: 'INVALID_MISSION_TYPE',
      message: 'USER_TAKEOVER_START needs an INTERACTIVE mission; this one is STYLE',
    });

    // The vote is on the stream, once: the refused one left nothing.
    const stream = streamOf(parent, mId);
    const events = await stream.waitFor((es) => es.some((e) => e.type === 'client.event'));
    stream.close();
    expect(events.filter((e) => e.type === 'client.event').map((e) => e.data)).toEqual([
      expect.objectContaining({
        eventType: 'USER_LIKED_ITEM',
        offerId: offers.shirt,
        memberId: parent.userId,
        member_id: parent.userId,
      }),
    ]);
  });

  it('holds a voice turn over the WebSocket, recorded in history as spoken', async () => {
    const foreign = await voiceSession(adult, mId);
    expect(foreign.status).toBe(403);

    const session = await voiceSession(parent, mId);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      sessionToken: expect.any(String),
      expiresInSeconds: expect.any(Number),
      websocketUrl: expect.stringContaining('/api/v1/voice/ws?token='),
    });
    const turn = await voiceTurn(
      atGateway(session.body.websocketUrl, client.baseUrl),
      'Something for a summer wedding under 100 euros',
    );
    expect(turn.messages[0]).toEqual({ type: 'ready', missionId: mId });
    const relayed = turn.messages.flatMap((m) => (m.type === 'event' ? [m.event] : []));
    expect(relayed[0]).toBe('turn.started');
    expect(relayed).toEqual(
      expect.arrayContaining(['tool.call', 'tool.result', 'message', 'turn.completed']),
    );

    const view = (await getMission(parent, mId)).body;
    const spoken = view.history.filter((m: Json) => m.source === 'voice');
    expect(spoken.map((m: Json) => [m.role, m.content])).toContainEqual([
      'user',
      'Something for a summer wedding under 100 euros',
    ]);
  });

  it('is the owner’s to chat in; other households see nothing', async () => {
    const notOwner = await chat(adult, mId, 'let me try');
    expect(notOwner.status).toBe(403);
    expect(notOwner.body).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the owner of the mission can chat with it',
    });
    const notOwnerEnds = await complete(adult, mId);
    expect(notOwnerEnds.body).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the owner of the mission can end it',
    });

    // Another member's STYLE mission is theirs alone to read (a POLL is every member's).
    const readByMember = await getMission(adult, mId);
    expect(readByMember.status).toBe(403);

    const foreignHousehold = await getMission(outsider, mId);
    expect(foreignHousehold.status).toBe(403);
    expect(foreignHousehold.body).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    const viaOwnHousehold = await getMission(outsider, mId, outsiderHouseholdId);
    expect(viaOwnHousehold.status).toBe(404);
    expect(viaOwnHousehold.body.error).toBe('NOT_FOUND');
    const theirStream = await as(outsider).GET(STREAM, {
      ...at(mId, outsiderHouseholdId),
      headers: { accept: 'text/event-stream' },
      parseAs: 'stream',
    });
    expect(theirStream.response.status).toBe(404);
    const theirVote = await clientEvent(
      outsider,
      mId,
      { eventType: 'USER_LIKED_ITEM', offerId: offers.shirt },
      outsiderHouseholdId,
    );
    expect(theirVote.status).toBe(404);
    const theirVoice = await voiceSession(outsider, mId, outsiderHouseholdId);
    expect(theirVoice.status).toBe(404);

    // Each member lists their own missions.
    const listOf = async (user: User) =>
      reply(await as(user).GET(MISSIONS, { params: { path: { id: householdId } } }));
    const mine = await listOf(parent);
    expect(mine.body.map((m: Json) => m.mission_id)).toEqual([mId]);
    expect((await listOf(adult)).body).toEqual([]);
    const theirArtifacts = reply(await as(outsider).GET(ARTIFACTS, at(mId, outsiderHouseholdId)));
    // Another household's mission is 404 there, like every other foreign resource.
    expect(theirArtifacts.status).toBe(404);
    expect(theirArtifacts.body).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
  });

  it('ends; then chat, events and voice are refused, and the artifacts and audit trail are there', async () => {
    const voice = await voiceSession(parent, mId);
    const done = await complete(parent, mId);
    expect(done.status).toBe(200);
    expect(done.body.state).toBe('DONE');

    const lateChat = await chat(parent, mId, 'one more?');
    expect(lateChat.status).toBe(409);
    expect(lateChat.body).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it accepts no more messages',
    });
    const lateEvent = await clientEvent(parent, mId, { eventType: 'USER_LIKED_ITEM', offerId: offers.shirt });
    expect(lateEvent.status).toBe(409);
    expect(lateEvent.body).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it accepts no more events',
    });
    const lateVoice = await voiceSession(parent, mId);
    const lateSocket = await voiceTurn(atGateway(voice.body.websocketUrl, client.baseUrl), 'still there?');
    expect(lateSocket.closed).toEqual({ code: 4409, reason: 'Mission is DONE' });
    expect(lateVoice.status).toBe(409);
    expect(lateVoice.body).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it no longer accepts chat',
    });

    const artifacts = await missionArtifacts(mId);
    expect(artifacts.map((a: Json) => a.type).sort()).toEqual([
      'MissionPlan',
      'OutcomeSummary',
      'Transcript',
    ]);
    // The mission lists them too, by the ids the artifacts service gave them.
    const view = (
      await eventually(
        () => getMission(parent, mId),
        (r) => r.body.artifacts.length === 3,
      )
    ).body;
    expect(view.artifacts.map((a: Json) => [a.type, a.artifact_id]).sort()).toEqual(
      artifacts.map((a: Json) => [a.type, a.artifactId]).sort(),
    );
    const transcriptId = artifactOf(artifacts, 'Transcript').artifactId;
    const one = reply(
      await as(parent).GET(ARTIFACT, { params: { path: { id: householdId, artifactId: transcriptId } } }),
    );
    expect(one.status).toBe(200);
    // The chat of a mission is its owner's: another member of the household can't read its transcript.
    const notTheirs = reply(
      await as(adult).GET(ARTIFACT, { params: { path: { id: householdId, artifactId: transcriptId } } }),
    );
    expect(notTheirs.status).toBe(403);
    expect(one.body.data.entries.filter((e: Json) => e.source === 'voice')).toHaveLength(2);
    const foreign = reply(
      await as(outsider).GET(ARTIFACT, {
        params: { path: { id: outsiderHouseholdId, artifactId: transcriptId } },
      }),
    );
    expect(foreign.status).toBe(404);
    expect(artifactOf(artifacts, 'MissionPlan').data).toMatchObject({
      goal: 'Find me a summer top under 80 EUR',
      steps: expect.any(Array),
      toolCallsExpected: expect.any(Array),
    });
    expect(artifactOf(artifacts, 'Transcript').data).toMatchObject({
      missionId: mId,
      hasVoice: true,
      totalMessages: view.history.length,
    });
    expect(artifactOf(artifacts, 'OutcomeSummary').data).toMatchObject({
      finalState: 'DONE',
      totalTurns: 6,
      toolCallsMade: expect.any(Number),
    });
    expect(artifactOf(artifacts, 'OutcomeSummary').data.toolCallsMade).toBe(
      view.history.reduce((n: number, m: Json) => n + (m.tool_calls?.length ?? 0), 0),
    );
    const typed = reply(
      await as(parent).GET(ARTIFACTS, {
        params: { path: { id: householdId, mId }, query: { artifact_type: 'Transcript' } },
      }),
    );
    expect(typed.body.map((a: Json) => a.type)).toEqual(['Transcript']);

    const audit = await eventually(
      async () =>
        reply(
          await as(parent).GET(AUDIT, { params: { path: { id: householdId, mId }, query: { limit: 500 } } }),
        ),
      (r) =>
        r.status === 200 &&
        r.body.items.some(
          (e: Json) => e.category === 'MISSION_LIFECYCLE' && e.action === 'MISSION_COMPLETED',
        ),
    );
    expect(audit.status).toBe(200);
    const entries = audit.body.items as Json[];
    const lifecycle = entries.filter((e) => e.category === 'MISSION_LIFECYCLE').map((e) => e.action);
    expect(lifecycle.sort()).toEqual(['MISSION_COMPLETED', 'MISSION_CREATED']);
    const toolCalls = entries.filter((e) => e.category === 'TOOL_CALL');
    expect(new Set(toolCalls.map((e) => e.detail.tool))).toEqual(
      new Set(['list_wardrobe', 'search_commerce', 'pair_with_wardrobe']),
    );
    expect(toolCalls.find((e) => e.detail.tool === 'search_commerce')?.detail).toMatchObject({
      args: { maxPrice: 80, currency: 'EUR' },
      ok: true,
    });
    expect(audit.body.total).toBe(audit.body.items.length);
    const page = reply(
      await as(parent).GET(AUDIT, {
        params: { path: { id: householdId, mId }, query: { limit: 2, offset: 1 } },
      }),
    );
    // The read above is itself in the trail now (DATA_ACCESS), one entry after those it returned.
    expect(page.body).toMatchObject({ total: audit.body.total + 1, limit: 2, offset: 1 });
    expect(page.body.items.map((e: Json) => e.eventId)).toEqual(
      audit.body.items.slice(1, 3).map((e: Json) => e.eventId),
    );
  });
});

describe('a POLL mission, end to end', () => {
  it('proposes offers, tallies two members’ votes, reports the standing and records the winner', async () => {
    const created = await createMission(parent, 'POLL', "Let's vote on a summer top under 100 EUR");
    expect(created.status).toBe(201);
    const mId = created.body.mission_id;
    const search = lastModel(created.body).tool_calls[0];
    expect(search.tool).toBe('search_commerce');
    expect(search.result.items.map((o: Json) => o.offerId)).toEqual([offers.shirt, offers.blouse]);
    expect(lastModel(created.body).content).toBe(
      "Here are 2 candidates for the household to vote on: 1) Blue linen shirt (45 EUR), 2) Silk blouse (95 EUR). Like or dislike them; I'll report the standing.",
    );

    for (const [who, body] of [
      [parent, { eventType: 'USER_LIKED_ITEM', offerId: offers.shirt }],
      [adult, { eventType: 'USER_LIKED_ITEM', offerId: offers.shirt }],
      [adult, { eventType: 'USER_DISLIKED_ITEM', offerId: offers.blouse, reason: 'Too pricey' }],
    ] as const) {
      const ack = await clientEvent(who, mId, body);
      expect(ack.status).toBe(200);
    }
    const missingOffer = await clientEvent(adult, mId, { eventType: 'USER_LIKED_ITEM' });
    expect(missingOffer.status).toBe(400);
    expect(missingOffer.body.details[0].loc).toEqual(['body', 'offerId']);

    const standing = await chat(parent, mId, 'How is the vote going?');
    expect(standing.status).toBe(200);
    expect(lastModel(standing.body).content).toBe(
      'Standing: Blue linen shirt: 2 likes, 0 dislikes (leading); Silk blouse: 0 likes, 1 dislike.',
    );

    const ended = await chat(parent, mId, 'done');
    expect(ended.body.state).toBe('DONE');
    expect(lastModel(ended.body).content).toBe(
      'Mission complete. The household picked Blue linen shirt (2 likes).',
    );
    const lateVote = await clientEvent(adult, mId, { eventType: 'USER_LIKED_ITEM', offerId: offers.blouse });
    expect(lateVote.body).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it accepts no more events',
    });

    const summary = artifactOf(await missionArtifacts(mId), 'OutcomeSummary').data;
    expect(summary.finalState).toBe('DONE');
    expect(summary.keyDecisions).toContain(
      `Winner: Blue linen shirt (${offers.shirt}) with 2 likes and 0 dislikes`,
    );
    expect(summary.resultItems).toContainEqual(
      expect.objectContaining({ offerId: offers.shirt, likes: 2, dislikes: 0, winner: true }),
    );
    expect(summary.resultItems).toContainEqual(
      expect.objectContaining({ offerId: offers.blouse, likes: 0, dislikes: 1, winner: false }),
    );
  });
});

describe('a CARTPREP mission, end to end', () => {
  it('waits for a parent’s approval, dispatches cart preparation, and leaves checkout to the owner', async () => {
    const created = reply(
      await as(adult).POST('/api/v1/households/{id}/requests', {
        params: { path: { id: householdId } },
        body: {
          title: 'Blue linen shirt',
          url: 'https://shop.zalando.de/shirt',
          price: 45,
          currency: 'EUR',
          size: 'M',
          offerId: offers.shirt,
        },
      }),
    );
    expect(created.status).toBe(201);
    const rid = created.body.requestId;
    expect(created.body.status).toBe('PENDING_APPROVAL');
    const request = { params: { path: { id: householdId, requestId: rid } } };

    const mission = await createMission(adult, 'CARTPREP', `Please prepare the cart for ${rid}`);
    expect(mission.status).toBe(201);
    const mId = mission.body.mission_id;
    const pending = lastModel(mission.body);
    expect(pending.tool_calls).toEqual([
      {
        tool: 'prepare_cart',
        args: { requestId: rid },
        result: expect.objectContaining({
          outcome: 'APPROVAL_NEEDED',
          status: 'PENDING_APPROVAL',
          cartprepJobId: null,
        }),
      },
    ]);
    expect(pending.content).toBe(
      `Request "Blue linen shirt" (${rid}) is waiting for approval: approval by a parent is needed before I can prepare the cart.`,
    );

    const APPROVE = '/api/v1/households/{id}/requests/{requestId}/approve';
    const byAdult = reply(await as(adult).POST(APPROVE, { ...request, body: {} }));
    expect(byAdult.status).toBe(403);
    expect(byAdult.body).toEqual({
      error: 'FORBIDDEN',
      message: 'Only a PARENT_GUARDIAN can approve purchase requests',
    });
    const approved = reply(await as(parent).POST(APPROVE, { ...request, body: {} }));
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('APPROVED');
    const approvedEvent = await clientEvent(parent, mId, {
      eventType: 'USER_APPROVED_REQUEST',
      requestId: rid,
    });
    expect(approvedEvent.body).toEqual({
      accepted: true,
      missionId: mId,
      eventType: 'USER_APPROVED_REQUEST',
    });

    const dispatched = await chat(adult, mId, `Approved now: go ahead with ${rid}`);
    expect(dispatched.status).toBe(200);
    const call = lastModel(dispatched.body).tool_calls[0];
    expect(call).toMatchObject({ tool: 'prepare_cart', args: { requestId: rid } });
    expect(call.result).toMatchObject({
      outcome: 'DISPATCHED',
      cartprepJobId: expect.stringMatching(/^cpj_/),
    });
    const jobId = call.result.cartprepJobId;
    expect(lastModel(dispatched.body).content).toBe(
      `Cart preparation for ${rid} has started (job ${jobId}). I never buy: you confirm the final checkout yourself.`,
    );
    // The agent never holds a checkout token.
    expect(JSON.stringify(dispatched.body)).not.toMatch(/confirmationToken/i);

    const ready = await eventually(
      async () => reply(await as(adult).GET('/api/v1/households/{id}/requests/{requestId}', request)),
      (r) => r.body.status === 'CART_READY',
    );
    expect(ready.body).toMatchObject({
      status: 'CART_READY',
      cartprepJobId: jobId,
      cart: expect.any(Object),
    });
    const job = reply(
      await as(adult).GET('/api/v1/households/{id}/cartprep/jobs/{jobId}', {
        params: { path: { id: householdId, jobId } },
      }),
    );
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ jobId, requestId: rid, status: 'SUCCEEDED' });

    const TOKEN = '/api/v1/households/{id}/requests/{requestId}/confirmation-token';
    const notTheActor = reply(await as(parent).POST(TOKEN, request));
    expect(notTheActor.status).toBe(403);
    expect(notTheActor.body).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the member who started the purchase can confirm it',
    });
    const issued = reply(await as(adult).POST(TOKEN, request));
    expect(issued.status).toBe(201);
    const confirm = async () =>
      reply(
        await as(adult).POST('/api/v1/households/{id}/requests/{requestId}/confirm-checkout', {
          ...request,
          body: { confirmationToken: issued.body.confirmationToken },
        }),
      );
    const completed = await confirm();
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('COMPLETED');
    const twice = await confirm();
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ error: 'CONFLICT', message: 'Confirmation token has already been used' });
    const confirmedEvent = await clientEvent(adult, mId, {
      eventType: 'USER_CONFIRMED_FINAL_CHECKOUT',
      requestId: rid,
    });
    expect(confirmedEvent.status).toBe(200);

    const ended = await complete(adult, mId);
    expect(ended.body.state).toBe('DONE');
    const summary = artifactOf(await missionArtifacts(mId, adult), 'OutcomeSummary').data;
    expect(summary.resultItems).toContainEqual(
      expect.objectContaining({
        kind: 'cart_preparation',
        requestId: rid,
        outcome: 'DISPATCHED',
        cartprepJobId: jobId,
      }),
    );
  });
});

describe('an INTERACTIVE mission, end to end', () => {
  it('opens a bridge session the user takes over and releases; the agent is refused meanwhile', async () => {
    const created = await createMission(
      parent,
      'INTERACTIVE',
      'Open https://www.zalando.de/ so I can look at shoes',
    );
    expect(created.status).toBe(201);
    const mId = created.body.mission_id;
    const call = lastModel(created.body).tool_calls[0];
    expect(call).toMatchObject({
      tool: 'create_browser_session',
      args: { startUrl: 'https://www.zalando.de/' },
      result: { sessionId: expect.stringMatching(/^bs_/), status: 'ACTIVE' },
    });
    const sid = call.result.sessionId;
    expect(lastModel(created.body).content).toContain(`I opened browser session ${sid}`);

    // One turn at a time: of simultaneous messages the others are refused, none is lost or half-done.
    const burst = await Promise.all(['one', 'two', 'three', 'four'].map((m) => chat(parent, mId, m)));
    const accepted = burst.filter((r) => r.status === 200);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const r of burst.filter((x) => x.status !== 200))
      expect({ status: r.status, body: r.body }).toEqual({
        status: 409,
        body: {
          error: 'CONFLICT',
          message: 'A turn is already running for this mission; wait for it to finish',
        },
      });
    const afterBurst = (await getMission(parent, mId)).body;
    expect(afterBurst.history).toHaveLength(2 + 2 * accepted.length);
    expect(lastModel(afterBurst).content).toBe(
      `Browser session ${sid} is open. Take over to drive it yourself, or say done to finish.`,
    );

    const SESSION = '/api/v1/households/{id}/browser/sessions/{sessionId}';
    const ours = { params: { path: { id: householdId, sessionId: sid } } };
    const session = reply(await as(parent).GET(SESSION, ours));
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ sessionId: sid, missionId: mId, status: 'ACTIVE' });

    const stream = streamOf(parent, mId);
    await stream.waitFor((es) => es.some((e) => e.type === 'turn.completed'));

    // What the agent does to drive the page (the bridge's internal route, as the orchestrator calls
    // it: not part of the public API, so not through @hs/client).
    const agentAction = (body: Record<string, unknown>) =>
      fetch(`${stack.url('browser-bridge')}/api/v1/sessions/${sid}/agent-action`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-token': BRIDGE_TOKEN },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
    expect((await agentAction({ type: 'NAVIGATE', url: 'https://www.zalando.de/shoes' })).status).toBe(200);

    const TAKEOVER = '/api/v1/households/{id}/browser/sessions/{sessionId}/takeover';
    const taken = reply(await as(parent).POST(TAKEOVER, ours));
    expect(taken.status).toBe(200);
    expect(taken.body.status).toBe('USER_TAKEOVER');
    const refused = await agentAction({ type: 'CLICK', selector: '#buy' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'CONFLICT',
      message: 'the user is in control of the browser',
    });
    const fallback = await clientEvent(parent, mId, { eventType: 'USER_TAKEOVER_START', sessionId: sid });
    expect(fallback.status).toBe(200);

    const released = reply(
      await as(parent).POST('/api/v1/households/{id}/browser/sessions/{sessionId}/release', ours),
    );
    expect(released.status).toBe(200);
    expect(released.body.status).toBe('ACTIVE');
    const releasedEvent = await clientEvent(parent, mId, { eventType: 'USER_TAKEOVER_END', sessionId: sid });
    expect(releasedEvent.body).toEqual({ accepted: true, missionId: mId, eventType: 'USER_TAKEOVER_END' });
    expect((await agentAction({ type: 'CLICK', selector: '#size-m' })).status).toBe(200);

    // The extension reports what the user does on the page; unsigned reports are refused.
    const navigated = {
      sessionId: sid,
      missionId: mId,
      type: 'PAGE_NAVIGATED',
      payload: { url: 'https://www.zalando.de/cart' },
    };
    const unsigned = await extensionEvent(navigated, false);
    expect(unsigned).toEqual({
      status: 401,
      body: { error: 'UNSIGNED_EVENT', message: 'Browser event is not signed' },
    });
    const signed = await extensionEvent(navigated);
    expect(signed).toEqual({
      status: 200,
      body: { accepted: true, sessionId: sid, missionId: mId, type: 'PAGE_NAVIGATED' },
    });

    // The mission's viewers saw the takeover, the release and the page change.
    const seen = await stream.waitFor(
      (es) =>
        es.some((e) => JSON.stringify(e.data).includes('USER_TAKEOVER_END')) &&
        es.some((e) => e.type === 'browser.event' && e.data.type === 'PAGE_NAVIGATED'),
    );
    expect(seen.find((e) => e.data.type === 'PAGE_NAVIGATED')?.data).toEqual({
      sessionId: sid,
      session_id: sid,
      type: 'PAGE_NAVIGATED',
      payload: { url: 'https://www.zalando.de/cart' },
      missionId: mId,
      at: expect.any(String),
    });
    stream.close();
    const shown = seen.filter((e) => e.type === 'browser.event' || e.type === 'client.event');
    expect(shown.map((e) => JSON.stringify(e.data))).toEqual(
      expect.arrayContaining([
        expect.stringContaining('USER_TAKEOVER_START'),
        expect.stringContaining('USER_TAKEOVER_END'),
      ]),
    );

    const elements = reply(
      await as(parent).GET('/api/v1/households/{id}/browser/sessions/{sessionId}/elements', ours),
    );
    expect(elements.status).toBe(200);
    expect(elements.body.sessionId).toBe(sid);
    const foreign = reply(
      await as(outsider).GET(SESSION, { params: { path: { id: outsiderHouseholdId, sessionId: sid } } }),
    );
    expect(foreign.status).toBe(404);

    const ended = await complete(parent, mId);
    expect(ended.body.state).toBe('DONE');
    const terminated = reply(
      await as(parent).POST('/api/v1/households/{id}/browser/sessions/{sessionId}/terminate', ours),
    );
    expect(terminated.body.status).toBe('TERMINATED');
    const late = reply(await as(parent).POST(TAKEOVER, ours));
    expect(late.status).toBe(409);
    expect(late.body).toEqual({
      error: 'INVALID_STATE',
      message: 'Browser session is TERMINATED; only ACTIVE or USER_TAKEOVER sessions accept this',
    });

    const summary = artifactOf(await missionArtifacts(mId), 'OutcomeSummary').data;
    expect(summary.resultItems).toContainEqual(
      expect.objectContaining({ kind: 'browser_session', sessionId: sid }),
    );
  });
});
