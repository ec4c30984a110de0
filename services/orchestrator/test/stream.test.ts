import type { Socket } from 'node:net';
import { openStreamCount } from '@hs/service-kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';
import { openEventSource, parseSse } from './fixtures/sse.ts';

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
let base: string;
const sockets = new Set<Socket>();
const lastEventIds: string[] = [];
const M = `/api/v1/households/${H}/orchestrator/missions`;

beforeAll(async () => {
  peers = await startFakePeers();
  app = await buildTestApp(peers.url, {
    env: { ORCHESTRATOR_SSE_HEARTBEAT_SECONDS: '0.2', ORCHESTRATOR_SSE_RETRY_MS: '100' },
  });
  app.addHook('onRequest', async (request) => {
    if (request.url.includes('/stream') && request.headers['last-event-id'])
      lastEventIds.push(String(request.headers['last-event-id']));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  app.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await app.close();
  await peers.close();
});

async function create(mission_type = 'STYLE', initial_message = 'summer tops under 80') {
  return (
    await app.inject({
      method: 'POST',
      url: M,
      headers: as(OWNER),
      payload: { mission_type, initial_message },
    })
  ).json();
}

describe('GET .../stream', () => {
  it('replays stored events, follows live ones, and after a dropped connection resumes with exactly the missed events', async () => {
    const m = await create();
    const { es, received } = openEventSource(`${base}${M}/${m.mission_id}/stream`, as(OWNER));
    try {
      await vi.waitFor(() => expect(received.some((e) => e.type === 'turn.completed')).toBe(true), {
        timeout: 3000,
      });
      const firstTurn = received.map((e) => e.type);
      expect(firstTurn).toEqual([
        'state.changed',
        'turn.started',
        'reasoning',
        'brief.updated',
        'plan.updated',
        'tool.call',
        'tool.result',
        'plan.updated', // the first step done, the second started
        'tool.call',
        'tool.result',
        'plan.updated',
        'message',
        'turn.completed',
      ]);
      expect(received[0]!.data).toMatchObject({ from: null, to: 'RUNNING' });
      // What the stylist understood reaches the stream before the search, and closes the turn.
      const brief = { itemKinds: ['top'], categories: ['TOP'], maxPrice: 80, seasons: ['SUMMER'] };
      expect(received.find((e) => e.type === 'brief.updated')!.data).toMatchObject({ brief });
      expect(received.find((e) => e.type === 'turn.completed')!.data).toMatchObject({ brief });
      const seenBeforeDrop = received.length;
      // Drop the connection server-side, then run a turn while the client is away.
      for (const s of sockets) s.destroy();
      const chat = await app.inject({
        method: 'POST',
        url: `${M}/${m.mission_id}/chat`,
        headers: as(OWNER),
        payload: { message: 'and shoes?' },
      });
      expect(chat.statusCode).toBe(200);
      await vi.waitFor(() => expect(received.filter((e) => e.type === 'turn.completed')).toHaveLength(2), {
        timeout: 3000,
      });
      expect(lastEventIds).toContain(String(seenBeforeDrop));
      expect(received.map((e) => e.seq)).toEqual(Array.from({ length: received.length }, (_, i) => i + 1));
      const live = received.find((e) => e.type === 'message' && e.seq > seenBeforeDrop)!;
      expect((live.data.message as { content: string }).content).toContain('For shoes');
    } finally {
      es.close();
    }
  });

  it('starts after Last-Event-ID or ?after=, sends retry once and keep-alive comments', async () => {
    const m = await create();
    const read = async (url: string, headers: Record<string, string>, ms: number) => {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(ms) });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      let body = '';
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body!) body += decoder.decode(chunk as Uint8Array);
      } catch {
        // the timeout ends the read
      }
      return parseSse(body);
    };
    const fromHeader = await read(
      `${base}${M}/${m.mission_id}/stream?after=1`,
      { ...as(OWNER), 'last-event-id': '10' },
      500,
    );
    expect(fromHeader.events.map((e) => e.seq)).toEqual([11, 12, 13]);
    expect(fromHeader.retry).toEqual([100]);
    expect(fromHeader.comments.length).toBeGreaterThanOrEqual(1);
    expect(fromHeader.comments[0]).toBe(': keep-alive');
    const fromQuery = await read(`${base}${M}/${m.mission_id}/stream?after=12`, as(OWNER), 300);
    expect(fromQuery.events.map((e) => [e.seq, e.type])).toEqual([[13, 'turn.completed']]);
    // The seq and type are the frame's id and event lines; its data has the type's fields plus these.
    expect(fromQuery.events[0]!.event).toMatchObject({
      missionId: m.mission_id,
      turnId: expect.stringMatching(/^turn_/),
      at: expect.any(String),
      state: 'RUNNING',
    });
    expect(fromQuery.events[0]!.event).not.toHaveProperty('seq');
  });

  it('resumes from the last event there is when Last-Event-ID is past it, so new events still arrive', async () => {
    const m = await create();
    const { es, received } = openEventSource(`${base}${M}/${m.mission_id}/stream`, {
      ...as(OWNER),
      'last-event-id': '9999',
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(received).toEqual([]); // nothing replayed: the client claims to have it all
      const chat = await app.inject({
        method: 'POST',
        url: `${M}/${m.mission_id}/chat`,
        headers: as(OWNER),
        payload: { message: 'something in blue' },
      });
      expect(chat.statusCode).toBe(200);
      await vi.waitFor(() => expect(received.map((e) => e.type)).toContain('turn.completed'), {
        timeout: 5000,
      });
      expect(received[0]!.seq).toBe(14);
    } finally {
      es.close();
    }
  });

  it('delivers live events to every open stream intact, multi-byte text and keep-alives between them included', async () => {
    const m = await create();
    // Each stream is read until the turn's end and two keep-alives have come (10 s at most).
    const read = async (url: string) => {
      const res = await fetch(url, { headers: as(OWNER), signal: AbortSignal.timeout(10_000) });
      const bytes: Uint8Array[] = [];
      try {
        for await (const chunk of res.body!) {
          bytes.push(chunk as Uint8Array);
          const text = Buffer.concat(bytes).toString('utf8');
          const sofar = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)); // whole frames only
          if (sofar.comments.length >= 2 && sofar.events.some((e) => e.type === 'turn.completed')) break;
        }
      } catch {
        // the safety timeout ends the read; the expectations below tell what was missing
      }
      return parseSse(Buffer.concat(bytes).toString('utf8'));
    };
    // Three followers from the end of the first turn: the chat below reaches them live.
    const streams = [1, 2, 3].map(() => read(`${base}${M}/${m.mission_id}/stream?after=13`));
    await new Promise((r) => setTimeout(r, 300));
    const message = 'une écharpe 👗 pour les soirées au café';
    const chat = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/chat`,
      headers: as(OWNER),
      payload: { message },
    });
    expect(chat.statusCode).toBe(200);
    const bodies = await Promise.all(streams);
    const seqs = bodies[0]!.events.map((e) => e.seq);
    expect(seqs[0]).toBe(14);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => 14 + i));
    for (const body of bodies) {
      expect(body.events).toEqual(bodies[0]!.events);
      expect(body.comments.length).toBeGreaterThanOrEqual(2);
      const completed = body.events.find((e) => e.type === 'turn.completed')!;
      expect(completed.event.messages).toContainEqual(expect.objectContaining({ content: message }));
    }
  });

  it('answers 404 for an unknown mission and 400 for a malformed Last-Event-ID', async () => {
    const missing = await app.inject({ method: 'GET', url: `${M}/msn_nope/stream`, headers: as(OWNER) });
    expect(missing.statusCode).toBe(404);
    const m = await create();
    const bad = await app.inject({
      method: 'GET',
      url: `${M}/${m.mission_id}/stream`,
      headers: { ...as(OWNER), 'last-event-id': 'abc' },
    });
    expect(bad.json()).toEqual({ error: 'BAD_REQUEST', message: 'Last-Event-ID must be a sequence number' });
  });

  it("answers HEAD at once with the stream's headers and no body, holding no stream open", async () => {
    const m = await create();
    const subscribe = vi.spyOn(app.ctx.events, 'subscribe');
    const started = Date.now();
    const head = await fetch(`${base}${M}/${m.mission_id}/stream`, {
      method: 'HEAD',
      headers: as(OWNER),
      signal: AbortSignal.timeout(3000),
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream');
    expect(await head.text()).toBe('');
    expect(Date.now() - started).toBeLessThan(2000);
    await vi.waitFor(() => expect(openStreamCount(app.server)).toBe(0), { timeout: 2000 });
    // Nothing was followed for it.
    expect(subscribe).not.toHaveBeenCalled();
    subscribe.mockRestore();
    // Refusals stay refusals.
    const missing = await fetch(`${base}${M}/msn_nope/stream`, { method: 'HEAD', headers: as(OWNER) });
    expect(missing.status).toBe(404);
  });
});

describe('POST .../chat with Accept: text/event-stream', () => {
  it("streams its own turn and ends with turn.completed carrying the turn's result, not the history", async () => {
    const m = await create('POLL', 'hats under 30');
    const res = await fetch(`${base}${M}/${m.mission_id}/chat`, {
      method: 'POST',
      headers: { ...as(OWNER), accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'how is the vote going?' }),
    });
    expect(res.status).toBe(200);
    const { events } = parseSse(await res.text());
    expect(events.map((e) => e.type)).toEqual(['turn.started', 'message', 'turn.completed']);
    const reply = events[1]!.event.message;
    expect(reply.content).toContain('Standing:');
    const done = events.at(-1)!.event;
    expect(done).toMatchObject({ state: 'RUNNING', turns: 2, tool_calls: [], replyId: reply.id });
    expect(done).not.toHaveProperty('mission');
    expect(done.messages.map((msg: { role: string }) => msg.role)).toEqual(['user']);
    expect(done.messages[0].content).toBe('how is the vote going?');
    const view = await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) });
    expect(done.version).toBe(view.json().updated_at);
  });

  it('answers refusals as JSON before any stream starts', async () => {
    const m = await create();
    await app.inject({ method: 'POST', url: `${M}/${m.mission_id}/complete`, headers: as(OWNER) });
    const res = await fetch(`${base}${M}/${m.mission_id}/chat`, {
      method: 'POST',
      headers: { ...as(OWNER), accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello?' }),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: 'INVALID_STATE',
      message: 'Mission is DONE; it accepts no more messages',
    });
  });
});
