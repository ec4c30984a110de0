import { randomUUID } from 'node:crypto';
import { outgoingTraceparent, runInTrace, serviceMetrics } from '@hs/service-kit';
import { ABORT, type CollectionOptions, type Store, StoreConflictError } from '@hs/store';
import type { Logger } from 'pino';

/**
 * One item. `nextAttemptAt` is both the retry time and the lease: claiming an item moves it
 * `leaseMs` into the future, so other instances (processes on the same store) skip it while it
 * is being delivered, and it becomes due again by itself if its claimer dies mid-delivery.
 * Delivered and dropped items stay as tombstones for `keepDoneMs` so a repeated `send` of the
 * same id is recognised instead of delivered again; the drain purges them afterwards.
 */
type OutboxDoc = {
  id: string;
  state: 'pending' | 'delivered' | 'dropped';
  payload: unknown;
  attempts: number;
  nextAttemptAt: number;
  /** Who holds the current lease; a late writer that lost its lease changes nothing. */
  claim: string | null;
  lastError: string | null;
  createdAt: string;
  /** The trace of the work that queued it, so the delivery continues that trace. */
  traceparent?: string | null;
};

export interface OutboxOptions<P> {
  store: Store;
  /** Collection name; one outbox per kind of delivery. */
  name: string;
  /** The signal aborts when the attempt runs out of time (`leaseMs / 2`). */
  deliver: (payload: P, id: string, signal: AbortSignal) => Promise<void>;
  logger?: Logger | undefined;
  /** Upper bound of the exponential backoff between attempts. */
  maxBackoffMs?: number;
  pollIntervalMs?: number;
  /** An error that retrying cannot fix: the item is dropped with an error log. */
  isPermanent?: (err: unknown) => boolean;
  /** Told about each dropped item (after the drop is stored), e.g. to write a SYSTEM audit entry. */
  onDropped?: (payload: P, id: string, err: unknown) => Promise<void>;
  /** How long a claimed item is hidden from other instances (default 30 s). */
  leaseMs?: number;
  /**
   * How long `stop` keeps delivering what is due before it returns (default 1 s), so items
   * queued just before a shutdown leave with this process; 0 turns it off.
   */
  finalDrainMs?: number;
  /** How long a delivered id is remembered, so sending it again is a no-op (default 1 h). */
  keepDoneMs?: number;
  /**
   * How long `send` waits for its first delivery attempt (default 4 s) before it answers
   * `delivered: false` and lets the attempt go on: the item is stored by then, and a receiver that
   * hangs must not hold the caller's request (an approval, say) for the attempt's whole timeout.
   * Once one wait has run out, sends do not wait until a delivery gets through again.
   */
  sendWaitMs?: number;
  /**
   * Whether the receiver hangs, shared with the other outboxes delivering to it: once one send's
   * wait ran out, none of them waits until a delivery gets through. A mission's creation queues an
   * audit entry and an artifact for artifacts-audit: with the ledger hung it waited twice, 8 s, near
   * the gateway's 10 s timeout (a 504 for a mission that was made).
   */
  receiver?: ReceiverState;
}

/** Whether a receiver hangs, as its outboxes have seen (see OutboxOptions.receiver). */
export type ReceiverState = { hangs: boolean };
export const createReceiverState = (): ReceiverState => ({ hangs: false });

export interface Outbox<P> {
  /** Stores the item (same id twice is stored and delivered once) and tries to deliver it right away. */
  send(id: string, payload: P): Promise<{ delivered: boolean }>;
  /** Delivers every due item now; returns how many were delivered. */
  drain(): Promise<number>;
  /** Items not yet delivered nor dropped. */
  pending(): Promise<number>;
  start(): void;
  /** Stops the loop, delivers what is due for a moment, and waits for the deliveries under way. */
  stop(): Promise<void>;
}

const BASE_BACKOFF_MS = 250;
const PAGE = 50;
const MAX_PAGES_PER_DRAIN = 20;

/** Exponential backoff with jitter: attempt n waits between half and all of 250 ms × 2^n, capped. */
export function backoffMs(
  attempts: number,
  maxBackoffMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxBackoffMs, BASE_BACKOFF_MS * 2 ** Math.min(attempts, 20));
  return Math.round(ceiling * (0.5 + random() / 2));
}

const errorText = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

/** The drain's due-items query (nextAttemptAt) and `pending()`'s count (state). */
export const OUTBOX_COLLECTION_OPTIONS = {
  indexes: [{ fields: ['nextAttemptAt'] }, { fields: ['state'] }],
} satisfies CollectionOptions;

export const outboxCollectionName = (name: string): string => `outbox_${name}`;

/** The store collections of the named outboxes, for a service's Firestore index definitions. */
export function outboxCollections(...names: string[]): Record<string, CollectionOptions> {
  return Object.fromEntries(names.map((name) => [outboxCollectionName(name), OUTBOX_COLLECTION_OPTIONS]));
}

/**
 * A durable delivery queue: what must reach a peer (an audit entry, a job's callback, an
 * artifact) is written to the store first and retried with backoff until the peer accepts it,
 * across restarts. Deliveries must be idempotent on the receiving side (same id, same effect):
 * an instance that dies after delivering but before recording it delivers again later.
 */
export function createOutbox<P>(options: OutboxOptions<P>): Outbox<P> {
  const items = options.store.collection<OutboxDoc>(
    outboxCollectionName(options.name),
    OUTBOX_COLLECTION_OPTIONS,
  );
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const leaseMs = options.leaseMs ?? 30_000;
  const keepDoneMs = options.keepDoneMs ?? 3_600_000;
  const sendWaitMs = options.sendWaitMs ?? 4000;
  /**
   * Set when a send's wait ran out with its delivery still going (a receiver that hangs), cleared
   * by the next delivery that gets through: meanwhile sends do not wait, so a hung receiver costs
   * one request its wait, not every request four seconds. Shared by the outboxes given the same
   * `receiver`.
   */
  const receiver = options.receiver ?? createReceiverState();
  const log = options.logger;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let uncollect: (() => void) | undefined;
  /** Set during the final drain: no delivery may outlast it. */
  let finalDeadline: number | undefined;
  const inflight = new Set<Promise<unknown>>();

  const track = <T>(work: Promise<T>): Promise<T> => {
    inflight.add(work);
    void work.finally(() => inflight.delete(work)).catch(() => {});
    return work;
  };

  /** Runs `deliver` bounded by half the lease, so a hung peer can't outlive the claim. */
  async function deliverInTime(doc: OutboxDoc): Promise<void> {
    const abort = new AbortController();
    const limit = Math.max(
      1,
      Math.floor(
        finalDeadline === undefined ? leaseMs / 2 : Math.min(leaseMs / 2, finalDeadline - Date.now()),
      ),
    );
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timeout = setTimeout(() => {
        const err = new Error(`delivery took longer than ${limit} ms`);
        abort.abort(err);
        reject(err);
      }, limit);
    });
    try {
      // Inside an async function: a deliver that throws synchronously becomes a rejection too.
      const delivery = (async () => options.deliver(doc.payload as P, doc.id, abort.signal))();
      delivery.catch(() => {}); // settled late after a timeout: nobody awaits it any more
      await Promise.race([delivery, expired]);
    } finally {
      clearTimeout(timeout);
    }
  }

  const permanent = (err: unknown): boolean => {
    try {
      return options.isPermanent?.(err) === true;
    } catch {
      return false;
    }
  };

  async function attempt(id: string): Promise<boolean> {
    const now = Date.now();
    if (finalDeadline !== undefined && now >= finalDeadline) return false;
    const claim = randomUUID();
    const claimed = await items.update(id, (doc) => {
      if (!doc || doc.state === 'delivered' || doc.state === 'dropped' || doc.nextAttemptAt > now)
        return ABORT;
      return { ...doc, state: 'pending', nextAttemptAt: now + leaseMs, claim };
    });
    if (!claimed.changed || !claimed.doc) return false;
    const doc = claimed.doc;
    try {
      await runInTrace(doc.traceparent, `outbox ${options.name}`, () => deliverInTime(doc), {
        'outbox.name': options.name,
        'outbox.id': id,
      });
    } catch (err) {
      const drop = permanent(err);
      const attempts = doc.attempts + 1;
      const wait = backoffMs(attempts, maxBackoff);
      const at = Date.now();
      await items.update(id, (current) => {
        if (!current || current.claim !== claim) return ABORT;
        if (drop)
          return {
            ...current,
            state: 'dropped',
            payload: null,
            claim: null,
            attempts,
            nextAttemptAt: at + keepDoneMs,
            lastError: errorText(err),
          };
        return { ...current, attempts, claim: null, nextAttemptAt: at + wait, lastError: errorText(err) };
      });
      if (drop) {
        log?.error({ err, outbox: options.name, id }, 'outbox item refused permanently; dropped');
        await options
          .onDropped?.(doc.payload as P, id, err)
          .catch((reportErr) =>
            log?.error(
              { err: reportErr, outbox: options.name, id },
              'dropped outbox item could not be reported',
            ),
          );
      } else
        log?.warn(
          { err, outbox: options.name, id, attempts, retryInMs: wait },
          'delivery failed; will retry',
        );
      return false;
    }
    receiver.hangs = false;
    const at = Date.now();
    // Delivered whoever holds the lease now: the peer has it, so nobody needs to send it again.
    await items.update(id, (current) =>
      current && current.state === 'pending'
        ? { ...current, state: 'delivered', payload: null, claim: null, nextAttemptAt: at + keepDoneMs }
        : ABORT,
    );
    return true;
  }

  /** Removes a tombstone whose time is up (unless it changed meanwhile). */
  async function purge(id: string): Promise<void> {
    const now = Date.now();
    await items.update(id, (doc) =>
      doc && doc.state !== 'pending' && doc.nextAttemptAt <= now ? null : ABORT,
    );
  }

  async function drain(): Promise<number> {
    let delivered = 0;
    for (let page = 0; page < MAX_PAGES_PER_DRAIN; page++) {
      const due = await items.query({
        where: [['nextAttemptAt', '<=', Date.now()]],
        orderBy: [{ field: 'nextAttemptAt' }],
        limit: PAGE,
      });
      for (const doc of due.items) {
        try {
          if (doc.state === 'delivered' || doc.state === 'dropped') await purge(doc.id);
          else if (await track(attempt(doc.id))) delivered++;
        } catch (err) {
          log?.warn({ err, outbox: options.name, id: doc.id }, 'outbox item could not be processed');
        }
      }
      // Every item of the page left the due range (delivered, rescheduled, claimed or purged).
      if (due.items.length < PAGE || stopped) break;
    }
    return delivered;
  }

  const tick = () => {
    if (stopped) return;
    running = drain()
      .catch((err) => log?.warn({ err, outbox: options.name }, 'outbox drain failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.pollIntervalMs ?? 500);
      });
  };

  return {
    async send(id, payload) {
      const doc: OutboxDoc = {
        id,
        state: 'pending',
        payload,
        attempts: 0,
        nextAttemptAt: Date.now(),
        claim: null,
        lastError: null,
        createdAt: new Date().toISOString(),
        traceparent: outgoingTraceparent() ?? null,
      };
      try {
        await items.create(id, doc);
      } catch (err) {
        if (!(err instanceof StoreConflictError)) throw err;
        const existing = await items.get(id);
        if (existing?.state === 'delivered') return { delivered: true };
        if (existing?.state === 'dropped') return { delivered: false };
      }
      // Stored: from here on a failure only delays the item, it never fails the caller.
      const delivery = track(attempt(id)).catch((err: unknown) => {
        log?.warn({ err, outbox: options.name, id }, 'outbox item stored; delivery deferred');
        return false;
      });
      if (receiver.hangs) return { delivered: false };
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => {
          receiver.hangs = true;
          resolve(false);
        }, sendWaitMs);
      });
      try {
        return { delivered: await Promise.race([delivery, waited]) };
      } finally {
        clearTimeout(timer);
      }
    },
    drain: () => track(drain()),
    pending: () => items.count([['state', '==', 'pending']]),
    start() {
      stopped = false;
      uncollect ??= serviceMetrics.collect(async () => [
        { name: 'outbox_backlog', labels: { outbox: options.name }, value: await this.pending() },
      ]);
      if (!timer) timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      uncollect?.();
      uncollect = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
      await Promise.allSettled([...inflight]);
      const finalDrainMs = options.finalDrainMs ?? 1000;
      if (finalDrainMs <= 0) return;
      finalDeadline = Date.now() + finalDrainMs;
      try {
        // One page at most (the drain stops after a page once stopped), each delivery bounded.
        await track(drain()).catch((err) =>
          log?.warn({ err, outbox: options.name }, 'final outbox drain failed'),
        );
      } finally {
        finalDeadline = undefined;
      }
    },
  };
}
