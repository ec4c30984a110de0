// A replay reads and delivers a mission's events a page at a time, each page at most about a
// megabyte of events however large they are, and a client that reads a long replay gets all of it
// (its stream reads the next page once the last has left, rather than being cut off).
import type { Socket } from 'node:net';
import type { StreamEvent } from '@hs/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventBytes, PAGE_BYTES } from '../src/adapters/event-pages.ts';
import { createMissionHubs } from '../src/adapters/mission-hubs.ts';
import { as, buildTestApp, createMission, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';
import { openEventSource } from './fixtures/sse.ts';

const M = `/api/v1/households/${H}/orchestrator/missions`;
const large = (seq: number, bytes: number): StreamEvent => ({
  event_id: `evt_${seq}`,
  mission_id: 'm_1',
  seq,
  type: 'client.event',
  created_at: '2026-01-01T00:00:00.000Z',
  data: { eventType: 'USER_LIKED_ITEM', offerId: `off_${seq}`, metadata: { a: 'x'.repeat(bytes) } },
});
const bytesOf = (events: StreamEvent[]) => events.reduce((sum, e) => sum + eventBytes(e), 0);

describe('replay pages', () => {
  it('delivers 300 events of 20 KB completely and in order, in pages of at most 1 MiB', async () => {
    const stored = Array.from({ length: 300 }, (_, i) => large(i + 1, 20_000));
    const reads: number[] = [];
    const hubs = createMissionHubs(async (_m, seq, limit) => {
      const page = stored.filter((e) => e.seq > seq).slice(0, limit);
      reads.push(bytesOf(page));
      return page;
    });
    const batches: StreamEvent[][] = [];
    const leave = hubs.subscribe('m_1', 0, {
      pollMs: 60_000,
      deliver: (events) => batches.push(events),
      fail: (err) => {
        throw err;
      },
    });
    await vi.waitFor(() => expect(batches.flat()).toHaveLength(300));
    leave();
    expect(batches.flat().map((e) => e.seq)).toEqual(stored.map((e) => e.seq));
    for (const batch of batches) expect(bytesOf(batch)).toBeLessThanOrEqual(PAGE_BYTES);
    // Every read asks for what fits in a page (the first, for a few events): never 200 of these.
    for (const read of reads) expect(read).toBeLessThanOrEqual(PAGE_BYTES + eventBytes(stored[0]!));
  });
});

describe('a long replay over a real stream', () => {
  let peers: FakePeers;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let base = '';
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    peers = await startFakePeers();
    app = await buildTestApp(peers.url);
    await app.listen({ host: '127.0.0.1', port: 0 });
    app.server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await app.close();
    await peers.close();
  });

  it('gets every event of 12 MB of stored events on one connection, none cut off or repeated', async () => {
    const mId = (await createMission(app, 'POLL', 'summer looks under 50 EUR')).mission_id as string;
    // Events as large as were stored before metadata had a bound, then many of the largest allowed.
    for (let i = 0; i < 30; i++)
      await app.ctx.events.append(mId, 'client.event', {
        eventType: 'USER_LIKED_ITEM',
        metadata: { a: 'x'.repeat(300_000) },
      });
    for (let i = 0; i < 1500; i++)
      await app.ctx.events.append(mId, 'client.event', {
        eventType: 'USER_LIKED_ITEM',
        metadata: { a: 'y'.repeat(1500) },
      });
    const last = await app.ctx.events.lastSeq(mId);
    const connects: number[] = [];
    app.server.on('request', (req) => {
      if (req.url?.includes(`${mId}/stream`)) connects.push(Date.now());
    });
    const { es, received } = openEventSource(`${base}${M}/${mId}/stream?after=0`, as(OWNER));
    try {
      await vi.waitFor(() => expect(received.at(-1)?.seq).toBe(last), { timeout: 20_000 });
      expect(received.map((e) => e.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      expect(connects).toHaveLength(1);
    } finally {
      es.close();
    }
  }, 30_000);
});
