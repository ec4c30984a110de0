import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { afterAll, describe, expect, it } from 'vitest';
import { backoffMs, createOutbox, createReceiverState, type OutboxOptions } from '../src/outbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const sqliteFile = () => join(dir, `outbox-${++files}.sqlite`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A peer that can be up or down and records what it accepted. */
function fakePeer() {
  const peer = {
    up: true,
    delayMs: 0,
    accepted: [] as string[],
    calls: 0,
    deliver: async (payload: { n: number }, id: string) => {
      peer.calls++;
      if (peer.delayMs) await sleep(peer.delayMs);
      if (!peer.up) throw new Error('ECONNREFUSED');
      peer.accepted.push(`${id}:${payload.n}`);
    },
  };
  return peer;
}

type Extra = Partial<OutboxOptions<{ n: number }>>;
const make = (store: Store, deliver: OutboxOptions<{ n: number }>['deliver'], extra: Extra = {}) =>
  createOutbox<{ n: number }>({ store, name: 'test', deliver, maxBackoffMs: 100, ...extra });

const backends: Array<[string, () => Store]> = [
  ['inmemory', () => createStore({ backend: 'inmemory' })],
  ['sqlite', () => createStore({ backend: 'sqlite', file: sqliteFile() })],
];

describe.each(backends)('outbox on %s', (_name, open) => {
  it('delivers at once when the peer is up', async () => {
    const peer = fakePeer();
    const outbox = make(open(), peer.deliver);
    expect(await outbox.send('a1', { n: 1 })).toEqual({ delivered: true });
    expect(peer.accepted).toEqual(['a1:1']);
    expect(await outbox.pending()).toBe(0);
  });

  it('answers the sender after sendWaitMs when the peer hangs, and delivers once it answers', async () => {
    const peer = fakePeer();
    peer.delayMs = 1500;
    const outbox = make(open(), peer.deliver, { sendWaitMs: 200 });
    const started = Date.now();
    // Stored, not yet delivered: the caller (an approval, say) is not held for the slow peer.
    expect(await outbox.send('h1', { n: 1 })).toEqual({ delivered: false });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(peer.accepted).toEqual([]);
    // The attempt went on and delivered it, once.
    await expect.poll(() => peer.accepted, { timeout: 5000, interval: 50 }).toEqual(['h1:1']);
    await expect.poll(() => outbox.pending(), { timeout: 5000, interval: 50 }).toBe(0);
    expect(peer.calls).toBe(1);
  });

  it('waits for a hung peer once: later sends answer at once until a delivery gets through', async () => {
    const peer = fakePeer();
    peer.delayMs = 3000;
    // A wait longer than the peer's hang, so a send that waited cannot pass for one that did not.
    const outbox = make(open(), peer.deliver, { sendWaitMs: 1000 });
    const first = Date.now();
    expect(await outbox.send('w1', { n: 1 })).toEqual({ delivered: false });
    expect(Date.now() - first).toBeGreaterThanOrEqual(900);
    // While no delivery has got through since, a send is not waited for, however fast its own
    // delivery would be: stored, and delivered by the attempt under way.
    peer.delayMs = 0;
    expect(await outbox.send('w2', { n: 2 })).toEqual({ delivered: false });
    await expect.poll(() => peer.accepted.length, { timeout: 10_000, interval: 50 }).toBe(2);
    // A delivery got through: sends wait for (and report) theirs as before.
    expect(await outbox.send('w3', { n: 3 })).toEqual({ delivered: true });
  });

  it('shares a hung receiver with the other outboxes given the same receiver: the second does not wait', async () => {
    const peer = fakePeer();
    peer.delayMs = 3000;
    const store = open();
    const receiver = createReceiverState();
    // Two kinds of item for one service (audit entries and artifacts for artifacts-audit).
    const entries = make(store, peer.deliver, { sendWaitMs: 1000, receiver });
    const artifacts = createOutbox<{ n: number }>({
      store,
      name: 'test-artifacts',
      deliver: peer.deliver,
      maxBackoffMs: 100,
      sendWaitMs: 1000,
      receiver,
    });
    const first = Date.now();
    expect(await entries.send('r1', { n: 1 })).toEqual({ delivered: false });
    expect(Date.now() - first).toBeGreaterThanOrEqual(900);
    const second = Date.now();
    expect(await artifacts.send('r2', { n: 2 })).toEqual({ delivered: false });
    expect(Date.now() - second).toBeLessThan(500);
    // Both delivered once the receiver answers.
    await expect
      .poll(() => peer.accepted.sort(), { timeout: 10_000, interval: 50 })
      .toEqual(['r1:1', 'r2:2']);
  });

  it('keeps an item while the peer is down, retries with backoff, then delivers it', async () => {
    const peer = fakePeer();
    peer.up = false;
    // The first retry waits 250-500 ms: room for a loaded machine's pause before the drain below.
    const outbox = make(open(), peer.deliver, { maxBackoffMs: 1000 });
    expect(await outbox.send('b1', { n: 1 })).toEqual({ delivered: false });
    expect(await outbox.pending()).toBe(1);
    // Not due yet: the backoff holds it back even though the peer is up again.
    peer.up = true;
    expect(await outbox.drain()).toBe(0);
    expect(peer.calls).toBe(1);
    await sleep(520);
    expect(await outbox.drain()).toBe(1);
    expect(peer.accepted).toEqual(['b1:1']);
    expect(await outbox.pending()).toBe(0);
  });

  it('stores and delivers the same id once, also when it is sent again later', async () => {
    const peer = fakePeer();
    const outbox = make(open(), peer.deliver);
    const [a, b] = await Promise.all([outbox.send('c1', { n: 1 }), outbox.send('c1', { n: 2 })]);
    expect([a.delivered || b.delivered]).toEqual([true]);
    expect(await outbox.send('c1', { n: 3 })).toEqual({ delivered: true });
    expect(await outbox.drain()).toBe(0);
    expect(peer.accepted).toEqual(['c1:1']);
  });

  it('drops an item the peer refuses permanently', async () => {
    let calls = 0;
    const outbox = make(
      open(),
      async () => {
        calls++;
        throw Object.assign(new Error('bad entry'), { status: 422 });
      },
      { isPermanent: (err) => (err as { status?: number }).status === 422 },
    );
    expect(await outbox.send('d1', { n: 1 })).toEqual({ delivered: false });
    expect(await outbox.pending()).toBe(0);
    await sleep(150);
    expect(await outbox.drain()).toBe(0);
    expect(calls).toBe(1);
    // Sending it again does not revive it.
    expect(await outbox.send('d1', { n: 1 })).toEqual({ delivered: false });
    expect(calls).toBe(1);
  });

  it('treats a deliver that throws synchronously, or an isPermanent that throws, as a retryable failure', async () => {
    const outbox = make(
      open(),
      (() => {
        throw new Error('sync boom');
      }) as never,
      {
        isPermanent: () => {
          throw new Error('classifier bug');
        },
      },
    );
    expect(await outbox.send('e1', { n: 1 })).toEqual({ delivered: false });
    expect(await outbox.pending()).toBe(1);
  });

  it('gives up an attempt that hangs after half the lease and retries it later', async () => {
    let hang = true;
    const seen: boolean[] = [];
    const outbox = make(
      open(),
      async (_p, _id, signal) => {
        if (hang) {
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          seen.push(signal.aborted);
          throw signal.reason;
        }
      },
      { leaseMs: 1000, maxBackoffMs: 50 },
    );
    const t0 = Date.now();
    expect(await outbox.send('f1', { n: 1 })).toEqual({ delivered: false });
    // Cut at 500 ms, well inside the lease.
    expect(Date.now() - t0).toBeLessThan(900);
    expect(seen).toEqual([true]);
    hang = false;
    await sleep(60);
    expect(await outbox.drain()).toBe(1);
  });

  it('stop() waits for the running drain and any delivery under way', async () => {
    const peer = fakePeer();
    peer.up = false;
    const store = open();
    const outbox = make(store, peer.deliver, { maxBackoffMs: 1, pollIntervalMs: 5 });
    await outbox.send('g1', { n: 1 });
    peer.up = true;
    peer.delayMs = 150;
    outbox.start();
    await sleep(40); // the loop has claimed g1 and is inside deliver
    const sending = outbox.send('g2', { n: 2 });
    await outbox.stop();
    expect(peer.accepted.sort()).toEqual(['g1:1', 'g2:2']);
    expect(await outbox.pending()).toBe(0);
    await sending;
    // Stopped means stopped: nothing more is attempted.
    const calls = peer.calls;
    await sleep(30);
    expect(peer.calls).toBe(calls);
  });
});

describe('outbox stop (shutdown)', () => {
  it('delivers what is due once more before it returns, within finalDrainMs', async () => {
    const peer = fakePeer();
    peer.up = false;
    // The loop polls rarely: without the final drain the item would wait for the next process.
    const outbox = make(createStore({ backend: 'inmemory' }), peer.deliver, {
      maxBackoffMs: 50,
      pollIntervalMs: 60_000,
    });
    outbox.start();
    expect(await outbox.send('s1', { n: 1 })).toEqual({ delivered: false });
    peer.up = true;
    await sleep(80); // past the backoff: due again
    await outbox.stop();
    expect(peer.accepted).toEqual(['s1:1']);
    expect(await outbox.pending()).toBe(0);
  });

  it('gives a hanging peer no more than finalDrainMs, and keeps the item', async () => {
    const peer = fakePeer();
    peer.up = false;
    const outbox = make(createStore({ backend: 'inmemory' }), peer.deliver, {
      maxBackoffMs: 20,
      pollIntervalMs: 60_000,
      leaseMs: 60_000,
      finalDrainMs: 200,
    });
    outbox.start();
    await outbox.send('s2', { n: 2 });
    peer.up = true;
    peer.delayMs = 5_000;
    await sleep(40);
    // The delivery is cut at the deadline, long before the peer would have accepted it.
    await outbox.stop();
    expect(peer.accepted).toEqual([]);
    expect(await outbox.pending()).toBe(1);
  });
});

describe('outbox on one sqlite file shared by two instances (two processes)', () => {
  it('delivers each item once when both drain at the same time', async () => {
    const file = sqliteFile();
    const storeA = createStore({ backend: 'sqlite', file });
    const storeB = createStore({ backend: 'sqlite', file });
    const peer = fakePeer();
    peer.up = false;
    const a = make(storeA, peer.deliver, { maxBackoffMs: 1 });
    const b = make(storeB, peer.deliver, { maxBackoffMs: 1 });
    for (let i = 0; i < 30; i++) await a.send(`h${i}`, { n: i });
    expect(await b.pending()).toBe(30);
    peer.up = true;
    peer.delayMs = 2; // deliveries overlap
    await sleep(5);
    const [da, db] = await Promise.all([a.drain(), b.drain()]);
    expect(da + db).toBe(30);
    expect(peer.accepted).toHaveLength(30);
    expect(new Set(peer.accepted).size).toBe(30);
    expect(da).toBeGreaterThan(0);
    expect(db).toBeGreaterThan(0);
    await storeA.close();
    await storeB.close();
  });

  it('keeps items across a restart: a new outbox on the same file delivers them', async () => {
    const file = sqliteFile();
    const first = createStore({ backend: 'sqlite', file });
    const peer = fakePeer();
    peer.up = false;
    await make(first, peer.deliver, { maxBackoffMs: 1 }).send('r1', { n: 1 });
    await first.close();

    peer.up = true;
    const second = createStore({ backend: 'sqlite', file });
    const outbox = make(second, peer.deliver);
    expect(await outbox.pending()).toBe(1);
    await sleep(5);
    expect(await outbox.drain()).toBe(1);
    expect(peer.accepted).toEqual(['r1:1']);
    await second.close();
  });

  it('retries an item whose claimer died mid-delivery once the lease runs out', async () => {
    const file = sqliteFile();
    const storeA = createStore({ backend: 'sqlite', file });
    const storeB = createStore({ backend: 'sqlite', file });
    // A claims the item and "dies": its delivery never returns and nothing records the outcome.
    const dead = make(storeA, () => new Promise<never>(() => {}), { leaseMs: 100_000 });
    void dead.send('k1', { n: 1 });
    await sleep(20);
    const peer = fakePeer();
    const survivor = make(storeB, peer.deliver);
    expect(await survivor.drain()).toBe(0);
    // Simulate the passage of the lease: the survivor sees the item due again.
    const raw = storeB.collection<{ nextAttemptAt: number }>('outbox_test');
    await raw.update('k1', (doc) => (doc ? { ...doc, nextAttemptAt: Date.now() - 1 } : null));
    expect(await survivor.drain()).toBe(1);
    expect(peer.accepted).toEqual(['k1:1']);
    await storeB.close();
  });

  it('a short lease expires by itself', async () => {
    const store = createStore({ backend: 'sqlite', file: sqliteFile() });
    const raw = store.collection<Record<string, unknown>>('outbox_test');
    // What a crashed instance leaves behind: a claim whose lease ends in half a second.
    const leaseEnds = Date.now() + 500;
    await raw.create('l1', {
      id: 'l1',
      state: 'pending',
      payload: { n: 1 },
      attempts: 0,
      nextAttemptAt: leaseEnds,
      claim: 'dead-instance',
      lastError: null,
      createdAt: new Date().toISOString(),
    });
    const peer = fakePeer();
    const outbox = make(store, peer.deliver);
    expect(await outbox.drain()).toBe(0);
    await sleep(leaseEnds - Date.now() + 20);
    expect(await outbox.drain()).toBe(1);
    expect(peer.accepted).toEqual(['l1:1']);
    await store.close();
  });
});

describe('backoff', () => {
  it('doubles from 500 ms with jitter down to half, and never exceeds the cap', () => {
    expect(backoffMs(1, 60_000, () => 1)).toBe(500);
    expect(backoffMs(1, 60_000, () => 0)).toBe(250);
    expect(backoffMs(2, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(5, 60_000, () => 1)).toBe(8000);
    expect(backoffMs(30, 60_000, () => 1)).toBe(60_000);
    expect(backoffMs(1000, 60_000, () => 0.999)).toBeLessThanOrEqual(60_000);
    expect(backoffMs(3, 100, () => 1)).toBe(100);
  });
});
