// The mission stream's events, kept in the store so any orchestrator process can replay and
// follow them (decisions "Streaming (SSE)"). Mission streams subscribe (mission-hubs.ts: pushed
// batches); a chat turn's own stream follows (below: a generator that ends with the turn). Sequence numbers come from an atomic per-mission
// counter; an in-process signal wakes local followers at once, and one shared poll per mission
// with followers finds the events other processes stored. Followers at the same position share
// one store read, so a new event costs one read per mission per process however many streams
// follow it, and an idle stream costs nothing of its own.
import type { StreamEvent, StreamEventType } from '@hs/contracts';
import { newId, nowIso } from '@hs/service-kit';
import type { CollectionOptions, Store } from '@hs/store';
import { FIRST_PAGE_EVENTS, PAGE_EVENTS, readPage } from './event-pages.ts';
import { createMissionHubs } from './mission-hubs.ts';

type Counter = { seq: number };

/** A gap older than this is a writer that died between taking a number and storing its event. */
const GAP_GRACE_MS = 2000;

/** `after`: a mission's events past a seq, in seq order. */
export const EVENT_LOG_COLLECTIONS = {
  mission_events: { indexes: [{ fields: ['mission_id', 'seq'] }] },
} satisfies Record<string, CollectionOptions>;

export function createEventLog(store: Store) {
  const events = store.collection<StreamEvent>('mission_events', EVENT_LOG_COLLECTIONS.mission_events);
  const counters = store.collection<Counter>('mission_event_counters');
  // Sleeping followers by mission; a set, as a thousand streams on one mission leave one by one.
  const sleepers = new Map<string, Set<() => void>>();
  const wake = (missionId: string) => {
    const waiting = sleepers.get(missionId);
    if (!waiting) return;
    sleepers.delete(missionId);
    for (const done of waiting) done();
  };
  // Local appends per mission: a follower that read before an append it did not wait for reads again.
  const appended = new Map<string, number>();

  async function append(
    missionId: string,
    type: StreamEventType,
    data: Record<string, unknown>,
  ): Promise<StreamEvent> {
    const { doc } = await counters.update(missionId, (c) => ({ seq: (c?.seq ?? 0) + 1 }));
    const event: StreamEvent = {
      event_id: newId('evt'),
      mission_id: missionId,
      seq: doc!.seq,
      type,
      created_at: nowIso(),
      data,
    };
    await events.create(event.event_id, event);
    if (polls.has(missionId)) appended.set(missionId, (appended.get(missionId) ?? 0) + 1);
    wake(missionId);
    hubs.wake(missionId);
    return event;
  }

  async function readAfter(missionId: string, seq: number, limit: number): Promise<StreamEvent[]> {
    const page = await events.query({
      where: [
        ['mission_id', '==', missionId],
        ['seq', '>', seq],
      ],
      orderBy: [{ field: 'seq' }],
      limit,
    });
    return page.items;
  }

  // Live streams: one reader per mission, batches pushed to every subscriber (mission-hubs.ts).
  const hubs = createMissionHubs(
    // Shared reads: streams catching up from the same position (a crowd that fell behind the
    // same batch) read that page once.
    (missionId, seq, limit) => after(missionId, seq, limit),
    // The counter document changes with every append, whichever process makes it.
    counters.watch
      ? (missionId, onChange, onError) =>
          counters.watch!(missionId, (counter) => onChange(counter?.seq ?? 0), onError)
      : undefined,
  );

  // Reads in flight, by mission, position and size: callers asking the same share the answer.
  const inFlight = new Map<string, Promise<StreamEvent[]>>();
  function after(missionId: string, seq: number, limit = PAGE_EVENTS): Promise<StreamEvent[]> {
    const key = `${missionId}\u0000${seq}\u0000${limit}`;
    let read = inFlight.get(key);
    if (!read) {
      read = readAfter(missionId, seq, limit).finally(() => inFlight.delete(key));
      inFlight.set(key, read);
    }
    return read;
  }

  // One timer per mission that has followers here, not one per stream.
  const polls = new Map<string, { followers: number; timer: NodeJS.Timeout }>();
  function watch(missionId: string, pollMs: number): () => void {
    let poll = polls.get(missionId);
    if (!poll) {
      poll = { followers: 0, timer: setInterval(() => wake(missionId), pollMs) };
      poll.timer.unref();
      polls.set(missionId, poll);
    }
    poll.followers++;
    const watched = poll;
    return () => {
      if (--watched.followers > 0) return;
      clearInterval(watched.timer);
      polls.delete(missionId);
      appended.delete(missionId);
    };
  }

  const lastSeq = async (missionId: string) => (await counters.get(missionId))?.seq ?? 0;

  /** Until a local append or the mission's shared poll tick (or the signal aborts). */
  function sleep(missionId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        sleepers.get(missionId)?.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const waiting = sleepers.get(missionId) ?? new Set();
      sleepers.set(missionId, waiting);
      waiting.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Events after `seq`, in order, then live ones until the signal aborts. A missing number is
   * waited for briefly (another process may be storing it) so a follower never skips an event.
   */
  async function* follow(missionId: string, seq: number, options: { pollMs: number; signal: AbortSignal }) {
    let cursor = seq;
    let gapSince: number | null = null;
    let limit = FIRST_PAGE_EVENTS;
    const unwatch = watch(missionId, options.pollMs);
    try {
      while (!options.signal.aborted) {
        const seen = appended.get(missionId);
        const page = await readPage(after, missionId, cursor, limit);
        limit = page.nextLimit;
        let full = page.full;
        for (const event of page.events) {
          if (event.seq !== cursor + 1) {
            gapSince ??= Date.now();
            if (Date.now() - gapSince < GAP_GRACE_MS) {
              full = false;
              break;
            }
          }
          gapSince = null;
          cursor = event.seq;
          yield event;
          if (options.signal.aborted) return;
        }
        if (!full && appended.get(missionId) === seen) await sleep(missionId, options.signal);
      }
    } finally {
      unwatch();
    }
  }

  return { append, after, lastSeq, follow, subscribe: hubs.subscribe };
}

export type EventLog = ReturnType<typeof createEventLog>;
