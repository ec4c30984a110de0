// Live delivery of a mission's events to every stream of that mission in this process. One hub
// per mission with subscribers: a new event costs one store read per hub, and each subscriber
// gets what it has not seen as one batch through a plain callback (no read, promise or
// generator of its own), so a thousand streams on a mission cost little more than a thousand
// socket writes. Events appended together are delivered together: the first at once, the ones
// right behind it at most BATCH_MS after the previous delivery finished, so a turn is not slowed
// by its own audience. Events other processes store are found by one listener (Firestore) or one
// poll per hub.
import type { StreamEvent } from '@hs/contracts';
import { FIRST_PAGE_EVENTS, type ReadAfter, readPage } from './event-pages.ts';

export type { ReadAfter } from './event-pages.ts';

/** A gap older than this is a writer that died between taking a number and storing its event. */
const GAP_GRACE_MS = 2000;
/**
 * 50 ms rather than 20: with 1,000 streams a delivery costs about 25 ms of this process's CPU,
 * so fewer deliveries per turn leave it more for the turn. Five runs each of the stream bench:
 * turn with streams / alone 1.68-2.77x (median 1.95) against 1.77-3.04x (median 2.42), every
 * event's p99 delay 129-182 ms (median 159) against 152-198 (186), first event unchanged. Text
 * still arrives 20 times a second.
 */
const BATCH_MS = 50;
/**
 * Stream writes before the event loop gets a turn, counted over every mission's hub in the
 * process, so several crowded missions delivering at once can't add up their writes. 1,000 rather
 * than 64: a write costs 15-30 us here, and yielding every 64 let the turn's own work in between,
 * so the last of 1,000 streams got the turn's first event after 33-61 ms and the turn took longer
 * too (the same work, more loop rounds). In one go, the stream bench measured (4 runs against 2):
 * first event p99 41-55 ms against 67-81, a turn with 1,000 streams 68-79 ms against 133-138.
 */
const WRITES_PER_TURN = 1000;
/**
 * And at most this long after the loop turn's first write (wall time, the turn's other work
 * included), looked at every CLOCK_EVERY writes: a guard for machines much slower than this one,
 * where 1,000 writes would hold every other request of the process (a turn's own tool calls
 * included) for 100 ms or more. Here 1,000 writes take 11-30 ms, so the clock does not cut a
 * delivery: cutting at 20 ms measured no better for the turn (stream bench, 3 runs each: 79-93 ms
 * against 87-94) and the last streams waited longer (first-event p99 70-80 ms against 58-78, on
 * a slow hour of this machine).
 */
const WRITE_MS_PER_TURN = 50;
const CLOCK_EVERY = 64;

/**
 * Pushes "this mission's events reach `seq`" (a Firestore listener on its counter); absent: poll.
 * The counter moves just before the event is stored, so a read right then may not find it yet.
 */
export type WatchMission = (
  missionId: string,
  onChange: (seq: number) => void,
  onError: (err: unknown) => void,
) => () => void;
/** How soon to read again when the counter says there is more than a read found. */
const RECHECK_MS = 25;

type Subscriber = {
  cursor: number;
  /** Still reading its own replay: the hub's deliveries are not its business yet. */
  catchingUp: boolean;
  deliver: (events: StreamEvent[]) => void;
  /** True while its client has not taken what it was sent: it then replays at its own pace. */
  backedUp?: () => boolean;
  /** Resolves once what was delivered has left (its replay reads the next page then). */
  drained?: () => Promise<void>;
  fail: (err: unknown) => void;
  left: boolean;
};

type Hub = {
  missionId: string;
  /** The last seq delivered to live subscribers. */
  cursor: number;
  /** The highest seq a listener has announced. */
  announced: number;
  /** Events the next read asks for (fewer while the events are large: event-pages.ts). */
  limit: number;
  subscribers: Set<Subscriber>;
  reading: boolean;
  again: boolean;
  gapSince: number | null;
  lastDelivery: number;
  later: NodeJS.Timeout | null;
  /** Ends the poll or the listener that finds other processes' events. */
  stopFinding: () => void;
};

/** Whether a stream takes the hub's deliveries (rather than catching up on its own). */
function hasLiveSubscriber(hub: Hub): boolean {
  for (const sub of hub.subscribers) if (!sub.catchingUp) return true;
  return false;
}

/** The events of `page` that can go out now: contiguous after `cursor`, or past a gap grown old. */
function deliverable(hub: Hub, page: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  let cursor = hub.cursor;
  for (const event of page) {
    if (event.seq !== cursor + 1) {
      hub.gapSince ??= Date.now();
      if (Date.now() - hub.gapSince < GAP_GRACE_MS) break;
    }
    hub.gapSince = null;
    cursor = event.seq;
    out.push(event);
  }
  return out;
}

export function createMissionHubs(
  readAfter: ReadAfter,
  watchMission?: WatchMission,
  options: { writesPerTurn?: number; writeMsPerTurn?: number } = {},
) {
  const hubs = new Map<string, Hub>();
  const writesPerTurn = options.writesPerTurn ?? WRITES_PER_TURN;
  const writeMsPerTurn = options.writeMsPerTurn ?? WRITE_MS_PER_TURN;
  // Writes in this turn of the event loop, by every hub: the first schedules the count's reset
  // for the next turn, so a hub that waits for that turn finds it at zero. Past the time limit
  // the count is set to the budget, which spends it.
  let written = 0;
  let turnStarted = 0;
  const countWrite = () => {
    if (written++ === 0) {
      turnStarted = performance.now();
      setImmediate(() => {
        written = 0;
      });
    } else if (written % CLOCK_EVERY === 0 && performance.now() - turnStarted >= writeMsPerTurn)
      written = Math.max(written, writesPerTurn);
  };
  const budgetLeft = async () => {
    while (written >= writesPerTurn) await new Promise((resolve) => setImmediate(resolve));
  };

  async function pump(hub: Hub): Promise<void> {
    if (hub.reading) {
      hub.again = true;
      return;
    }
    hub.reading = true;
    try {
      for (;;) {
        hub.again = false;
        const page = await readPage(readAfter, hub.missionId, hub.cursor, hub.limit);
        hub.limit = page.nextLimit;
        const batch = deliverable(hub, page.events);
        if (batch.length > 0) {
          const last = batch.at(-1)!.seq;
          hub.cursor = last;
          // A thousand sockets (or 50 ms after the first) a loop turn at most, for all missions
          // together: other requests here go on while a larger crowd is written to.
          for (const sub of [...hub.subscribers]) {
            if (written >= writesPerTurn) await budgetLeft();
            if (sub.catchingUp || sub.cursor >= last || !hub.subscribers.has(sub)) continue;
            // A client still reading an earlier page (a long replay, a slow link) reads the rest
            // from the store a page at a time, rather than having page after page queued for it.
            if (sub.backedUp?.()) {
              sub.catchingUp = true;
              void catchUp(hub, sub);
              continue;
            }
            const unseen = sub.cursor < batch[0]!.seq ? batch : batch.filter((e) => e.seq > sub.cursor);
            sub.cursor = last;
            sub.deliver(unseen);
            countWrite();
          }
          hub.lastDelivery = performance.now();
        }
        // Nobody to read ahead for: each catching-up stream wakes the hub when it gets here.
        if (!hasLiveSubscriber(hub)) break;
        if (!(page.full && batch.length === page.events.length) && !hub.again) break;
      }
      if (hub.cursor < hub.announced) {
        const recheck = setTimeout(() => wake(hub.missionId), RECHECK_MS);
        recheck.unref();
      }
    } catch (err) {
      for (const sub of hub.subscribers) sub.fail(err);
    } finally {
      hub.reading = false;
    }
  }

  /** A local append (or the poll): deliver at once, or with the next batch when one just went. */
  function wake(missionId: string): void {
    const hub = hubs.get(missionId);
    if (!hub || hub.later) return;
    const wait = hub.lastDelivery + BATCH_MS - performance.now();
    if (wait <= 0) {
      void pump(hub);
      return;
    }
    hub.later = setTimeout(() => {
      hub.later = null;
      void pump(hub);
    }, wait);
    hub.later.unref();
  }

  /**
   * Events other processes store: a listener where the store pushes changes (Firestore: no
   * billed reads while nothing happens), else one poll per mission; a broken listener falls back
   * to the poll.
   */
  function findOthers(missionId: string, pollMs: number): () => void {
    const poll = () => {
      const timer = setInterval(() => wake(missionId), pollMs);
      timer.unref();
      return () => clearInterval(timer);
    };
    if (!watchMission) return poll();
    let stop = watchMission(
      missionId,
      (seq) => {
        const hub = hubs.get(missionId);
        if (hub) hub.announced = Math.max(hub.announced, seq);
        wake(missionId);
      },
      () => {
        stop();
        stop = poll();
      },
    );
    return () => stop();
  }

  /** Replays `sub` from its own position until it reaches the hub's; then the hub delivers to it. */
  async function catchUp(hub: Hub, sub: Subscriber): Promise<void> {
    const gone = () => sub.left;
    try {
      let limit = hub.limit;
      while (!gone() && sub.cursor < hub.cursor) {
        // One page in memory and on its way at a time, however long the replay.
        await sub.drained?.();
        if (gone()) break;
        // Everything up to where the hub was when the read began is stored (the hub read it).
        const target = hub.cursor;
        const page = await readPage(readAfter, hub.missionId, sub.cursor, limit);
        limit = page.nextLimit;
        const mine = page.events.filter((e) => e.seq > sub.cursor && e.seq <= target);
        if (mine.length > 0) {
          sub.cursor = mine.at(-1)!.seq;
          sub.deliver(mine);
        }
        // Below that position, a seq never stored was skipped by the hub too.
        if (!page.full) sub.cursor = Math.max(sub.cursor, target);
      }
    } catch (err) {
      sub.fail(err);
    } finally {
      sub.catchingUp = false;
      // The hub may have stopped reading while every stream of it was catching up.
      if (!sub.left) wake(hub.missionId);
    }
  }

  /**
   * Events after `seq` (the stored ones first), then live ones, to `deliver` in order and in
   * batches, until the returned function is called. `fail` hears a store failure.
   */
  function subscribe(
    missionId: string,
    seq: number,
    handlers: {
      pollMs: number;
      deliver: (events: StreamEvent[]) => void;
      backedUp?: () => boolean;
      drained?: () => Promise<void>;
      fail: (err: unknown) => void;
    },
  ): () => void {
    let hub = hubs.get(missionId);
    const created = !hub;
    if (!hub) {
      hub = {
        missionId,
        cursor: seq,
        announced: 0,
        limit: FIRST_PAGE_EVENTS,
        subscribers: new Set(),
        reading: false,
        again: false,
        gapSince: null,
        lastDelivery: 0,
        later: null,
        stopFinding: () => {},
      };
      hub.stopFinding = findOthers(missionId, handlers.pollMs);
      hubs.set(missionId, hub);
    }
    const sub: Subscriber = {
      cursor: seq,
      catchingUp: !created && seq < hub.cursor,
      deliver: handlers.deliver,
      fail: handlers.fail,
      left: false,
      ...(handlers.backedUp ? { backedUp: handlers.backedUp } : {}),
      ...(handlers.drained ? { drained: handlers.drained } : {}),
    };
    hub.subscribers.add(sub);
    const own = hub;
    if (sub.catchingUp) void catchUp(own, sub);
    else void pump(own);
    return () => {
      sub.left = true;
      own.subscribers.delete(sub);
      if (own.subscribers.size > 0 || hubs.get(missionId) !== own) return;
      own.stopFinding();
      if (own.later) clearTimeout(own.later);
      hubs.delete(missionId);
    };
  }

  return { subscribe, wake };
}

export type MissionHubs = ReturnType<typeof createMissionHubs>;
