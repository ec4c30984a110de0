import type { StreamEvent } from '@hs/contracts';
import { createStore, type Store } from '@hs/store';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createEventLog } from '../src/adapters/event-log.ts';
import { sseFrame } from '../src/domain/stream-frame.ts';
import { openSse } from '../src/routes/sse.ts';

/** An in-memory store that counts the queries made on the mission event log. */
function countingStore(): { store: Store; reads: () => number } {
  const store = createStore({ backend: 'inmemory' });
  let reads = 0;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'collection') return Reflect.get(target, prop, receiver);
      return (name: string, options?: unknown) => {
        const collection = (target.collection as (n: string, o?: unknown) => object)(name, options);
        if (name !== 'mission_events') return collection;
        return new Proxy(collection, {
          get(c, key, r) {
            const value = Reflect.get(c, key, r);
            if (key !== 'query' || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              reads++;
              return value.apply(c, args);
            };
          },
        });
      };
    },
  });
  return { store: wrapped, reads: () => reads };
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

const event = (seq: number): StreamEvent => ({
  event_id: `evt_${seq}`,
  mission_id: 'm_1',
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
