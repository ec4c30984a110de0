import { randomUUID } from 'node:crypto';
import type { StreamEvent } from '@hs/contracts';
import { createStore, type Store } from '@hs/store';
import { firestoreEmulatorHost, wrapCollection } from '@hs/testing';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createEventLog } from '../src/adapters/event-log.ts';
import { createMissionHubs } from '../src/adapters/mission-hubs.ts';
import { sseFrame } from '../src/domain/stream-frame.ts';
import { openSse } from '../src/routes/sse.ts';

/** An in-memory store that counts the queries made on the mission event log. */
function countingStore(): { store: Store; reads: () => number } {
  let reads = 0;
  const store = wrapCollection(createStore({ backend: 'inmemory' }), 'mission_events', (method, query) =>
    method === 'query'
      ? (...args) => {
          reads++;
          return query(...args);
        }
      : undefined,
  );
  return { store, reads: () => reads };
}

describe('mission streams in one process', () => {
  it('delivers a new event to every follower with one store read', async () => {
    const { store, reads } = countingStore();
    const log = createEventLog(store);
    await log.append('m_1', 'state.changed', { from: 'NEW', to: 'ACTIVE' });
    const abort = new AbortController();
    const received: number[][] = [];
    const followers = Array.from({ length: 50 }, async (_, i) => {
      received[i] = [];
      for await (const event of log.follow('m_1', 0, { pollMs: 60_000, signal: abort.signal }))
        received[i]!.push(event.seq);
    });
    await vi.waitFor(() => expect(received.every((seqs) => seqs.length === 1)).toBe(true));
    // Let every follower finish its catch-up reads and go to sleep.
    await new Promise((r) => setTimeout(r, 20));
    const before = reads();
    await log.append('m_1', 'turn.started', { source: 'text' });
    await vi.waitFor(() => expect(received.every((seqs) => seqs.join() === '1,2')).toBe(true));
    expect(reads() - before).toBe(1);
    abort.abort();
    await Promise.all(followers);
  });

  it('still finds events another process stored, through the shared poll', async () => {
    const { store } = countingStore();
    const here = createEventLog(store);
    const elsewhere = createEventLog(store);
    const abort = new AbortController();
    const seen: number[] = [];
    const follower = (async () => {
      for await (const event of here.follow('m_2', 0, { pollMs: 20, signal: abort.signal }))
        seen.push(event.seq);
    })();
    await elsewhere.append('m_2', 'turn.started', { source: 'text' });
    await vi.waitFor(() => expect(seen).toEqual([1]));
    abort.abort();
    await follower;
  });
});

describe('mission streams subscribed to a mission hub', () => {
  it('a new event costs one store read however many streams follow, and reaches each once, in order', async () => {
    const { store, reads } = countingStore();
    const log = createEventLog(store);
    await log.append('m_3', 'state.changed', { from: null, to: 'RUNNING' });
    const received = Array.from({ length: 200 }, () => [] as number[]);
    const leave = received.map((seqs) =>
      log.subscribe('m_3', 0, {
        pollMs: 60_000,
        deliver: (events) => seqs.push(...events.map((e) => e.seq)),
        fail: (err) => {
          throw err;
        },
      }),
    );
    await vi.waitFor(() => expect(received.every((seqs) => seqs.join() === '1')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    const before = reads();
    for (let i = 0; i < 5; i++) await log.append('m_3', 'reasoning', { text: `${i}` });
    await vi.waitFor(() => expect(received.every((seqs) => seqs.join() === '1,2,3,4,5,6')).toBe(true));
    // The first append is read at once; the rest go out together (at most a read or two more).
    expect(reads() - before).toBeLessThanOrEqual(3);
    for (const unsubscribe of leave) unsubscribe();
  });

  it('a stream that joins late replays what it missed, then follows live, with no gap and no repeat', async () => {
    const log = createEventLog(createStore({ backend: 'inmemory' }));
    const early: number[] = [];
    const leaveEarly = log.subscribe('m_4', 0, {
      pollMs: 60_000,
      deliver: (events) => early.push(...events.map((e) => e.seq)),
      fail: () => undefined,
    });
    for (let i = 0; i < 30; i++) await log.append('m_4', 'reasoning', { text: `${i}` });
    await vi.waitFor(() => expect(early).toHaveLength(30));
    const late: number[] = [];
    const leaveLate = log.subscribe('m_4', 10, {
      pollMs: 60_000,
      deliver: (events) => late.push(...events.map((e) => e.seq)),
      fail: () => undefined,
    });
    // Appends go on while it catches up.
    for (let i = 0; i < 10; i++) await log.append('m_4', 'reasoning', { text: `more ${i}` });
    const all = Array.from({ length: 40 }, (_, i) => i + 1);
    await vi.waitFor(() => expect(late).toEqual(all.slice(10)));
    await vi.waitFor(() => expect(early).toEqual(all));
    leaveEarly();
    leaveLate();
  });

  it('finds events another process stored through one poll per mission, and stops polling when the last stream goes', async () => {
    const { store, reads } = countingStore();
    const here = createEventLog(store);
    const elsewhere = createEventLog(store);
    const seen: number[] = [];
    const leave = here.subscribe('m_5', 0, {
      pollMs: 20,
      deliver: (events) => seen.push(...events.map((e) => e.seq)),
      fail: () => undefined,
    });
    await elsewhere.append('m_5', 'turn.started', { source: 'text' });
    await vi.waitFor(() => expect(seen).toEqual([1]));
    leave();
    const after = reads();
    await new Promise((r) => setTimeout(r, 100));
    expect(reads()).toBe(after);
  });
});

const emulator = firestoreEmulatorHost();
describe.skipIf(!emulator)('mission streams on Firestore (emulator)', () => {
  it("hear another process's events through a snapshot listener, not a poll", async () => {
    const namespace = `t${randomUUID().slice(0, 8)}_`;
    const open = () => createStore({ backend: 'docstore', projectId: 'demo-stream-test', namespace });
    const [storeHere, storeElsewhere] = [open(), open()];
    let leave = () => {};
    try {
      const here = createEventLog(storeHere);
      const elsewhere = createEventLog(storeElsewhere);
      const seen: number[] = [];
      // A poll this slow never fires during the test: only the listener can deliver.
      leave = here.subscribe('m_6', 0, {
        pollMs: 600_000,
        deliver: (events) => seen.push(...events.map((e) => e.seq)),
        fail: (err) => {
          throw err;
        },
      });
      await new Promise((r) => setTimeout(r, 500));
      await elsewhere.append('m_6', 'turn.started', { source: 'text' });
      await elsewhere.append('m_6', 'reasoning', { text: 'hi' });
      await vi.waitFor(() => expect(seen).toEqual([1, 2]), { timeout: 10_000 });
    } finally {
      leave();
      await storeHere.close();
      await storeElsewhere.close();
    }
  });
});

function fakeStream() {
  const written: string[] = [];
  let closedWith: string | null = null;
  const raw = {
    destroyed: false,
    writableEnded: false,
    writableLength: 0,
    writeHead: () => raw,
    write: (chunk: string) => written.push(chunk),
    end: (chunk?: string) => {
      closedWith = chunk ?? '';
      raw.writableEnded = true;
    },
    on: () => raw,
    once: () => raw,
  };
  // `server.server`: the HTTP server whose open streams shutdown ends (trackOpenStream).
  const reply = { raw, hijack: () => undefined, server: { server: {} } } as unknown as FastifyReply;
  const request = { id: 'req-1' } as unknown as FastifyRequest;
  return { raw, reply, request, written, closed: () => closedWith };
}

const event = (seq: number, missionId = 'm_1'): StreamEvent => ({
  event_id: `evt_${missionId}_${seq}`,
  mission_id: missionId,
  seq,
  type: 'reasoning',
  created_at: '2026-01-01T00:00:00.000Z',
  data: { text: 'x' },
});

describe('a slow stream client', () => {
  it('is sent events while it keeps up, then closed with a retry hint once too far behind', async () => {
    const s = fakeStream();
    const sse = openSse(s.request, s.reply, { retryMs: 1500, heartbeatMs: 60_000, maxBufferedBytes: 100 });
    sse.send(event(1));
    await new Promise((r) => process.nextTick(r));
    expect(s.written.at(-1)).toBe(sseFrame(event(1)));
    s.raw.writableLength = 101;
    sse.send(event(2));
    expect(s.closed()).toBe(': too far behind, reconnect with Last-Event-ID\nretry: 1500\n\n');
    expect(sse.signal.aborted).toBe(true);
    expect(s.written.some((w) => w.startsWith('id: 2'))).toBe(false);
  });
});

/** The most deliveries between two turns of the event loop (a check-phase callback that re-arms itself marks each turn). */
function loopTurnProbe() {
  let sinceTurn = 0;
  let most = 0;
  let ticking = true;
  const tick = () => {
    sinceTurn = 0;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    wrote: () => {
      most = Math.max(most, ++sinceTurn);
    },
    most: () => most,
    stop: () => {
      ticking = false;
    },
  };
}

describe('the write budget of mission hubs', () => {
  it('lets the event loop turn once a budget of writes is spent, counted over every mission together', async () => {
    const stored = new Map<string, StreamEvent[]>([
      ['m_a', []],
      ['m_b', []],
    ]);
    const readAfter = async (missionId: string, seq: number) =>
      (stored.get(missionId) ?? []).filter((e) => e.seq > seq);
    const hubs = createMissionHubs(readAfter, undefined, { writesPerTurn: 3 });
    const turns = loopTurnProbe();
    const got = new Map<string, number[][]>();
    const leave: (() => void)[] = [];
    for (const missionId of ['m_a', 'm_b']) {
      const lists = Array.from({ length: 5 }, () => [] as number[]);
      got.set(missionId, lists);
      for (const list of lists)
        leave.push(
          hubs.subscribe(missionId, 0, {
            pollMs: 60_000,
            deliver: (events) => {
              list.push(...events.map((e) => e.seq));
              turns.wrote();
            },
            fail: (err) => {
              throw err;
            },
          }),
        );
    }
    await new Promise((r) => setTimeout(r, 20));
    stored.get('m_a')!.push(event(1, 'm_a'));
    stored.get('m_b')!.push(event(1, 'm_b'));
    hubs.wake('m_a');
    hubs.wake('m_b');
    await vi.waitFor(() => expect([...got.values()].flat().every((seqs) => seqs.join() === '1')).toBe(true));
    turns.stop();
    // Ten streams, three writes a turn: never more than three in a row, though two missions deliver.
    expect(turns.most()).toBe(3);
    for (const unsubscribe of leave) unsubscribe();
  });

  it('also lets the loop turn once writing has taken its time, however few writes that was', async () => {
    const stored: StreamEvent[] = [];
    const hubs = createMissionHubs(async (_m, seq) => stored.filter((e) => e.seq > seq), undefined, {
      writesPerTurn: 1000,
      writeMsPerTurn: 5,
    });
    const turns = loopTurnProbe();
    const got: number[] = [];
    const leave = Array.from({ length: 200 }, () =>
      hubs.subscribe('m_slow', 0, {
        pollMs: 60_000,
        // A slow socket write: 0.2 ms each, so 64 of them outlast the 5 ms.
        deliver: (events) => {
          const until = performance.now() + 0.2;
          while (performance.now() < until);
          got.push(events.length);
          turns.wrote();
        },
        fail: (err) => {
          throw err;
        },
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    stored.push(event(1, 'm_slow'));
    hubs.wake('m_slow');
    await vi.waitFor(() => expect(got).toHaveLength(200));
    turns.stop();
    // The clock is read every 64 writes: the first look past 5 ms ends the loop turn's writing.
    expect(turns.most()).toBe(64);
    for (const unsubscribe of leave) unsubscribe();
  });
});
