// The mission stream's events, kept in the store so any orchestrator process can replay and
// follow them (decisions "Streaming (SSE)"). Sequence numbers come from an atomic per-mission
// counter; an in-process signal wakes local followers at once, polling finds the others'.
import { EventEmitter } from 'node:events';
import type { StreamEvent, StreamEventType } from '@hs/contracts';
import { newId, nowIso } from '@hs/service-kit';
import type { CollectionOptions, Store } from '@hs/store';

type Counter = { seq: number };

/** A gap older than this is a writer that died between taking a number and storing its event. */
const GAP_GRACE_MS = 2000;
const PAGE = 200;

/** `after`: a mission's events past a seq, in seq order. */
export const EVENT_LOG_COLLECTIONS = {
  mission_events: { indexes: [{ fields: ['mission_id', 'seq'] }] },
} satisfies Record<string, CollectionOptions>;

export function createEventLog(store: Store) {
  const events = store.collection<StreamEvent>('mission_events', EVENT_LOG_COLLECTIONS.mission_events);
  const counters = store.collection<Counter>('mission_event_counters');
  const wake = new EventEmitter();
  wake.setMaxListeners(0);

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
    wake.emit(missionId);
    return event;
  }

  async function after(missionId: string, seq: number, limit = PAGE): Promise<StreamEvent[]> {
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

  const lastSeq = async (missionId: string) => (await counters.get(missionId))?.seq ?? 0;

  function sleep(missionId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake.off(missionId, done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake.once(missionId, done);
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
    while (!options.signal.aborted) {
      const page = await after(missionId, cursor);
      let full = page.length === PAGE;
      for (const event of page) {
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
      if (!full) await sleep(missionId, options.pollMs, options.signal);
    }
  }

  return { append, after, lastSeq, follow };
}

export type EventLog = ReturnType<typeof createEventLog>;
