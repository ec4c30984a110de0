import { ABORT, type Store, StoreConflictError } from '@hs/store';
import type { Logger } from 'pino';

type OutboxDoc = {
  id: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: number;
  leaseUntil: number;
  lastError: string | null;
  createdAt: string;
};

export interface OutboxOptions<P> {
  store: Store;
  /** Collection name; one outbox per kind of delivery. */
  name: string;
  deliver: (payload: P, id: string) => Promise<void>;
  logger?: Logger | undefined;
  /** Upper bound of the exponential backoff between attempts. */
  maxBackoffMs?: number;
  pollIntervalMs?: number;
  /** An error that retrying cannot fix: the item is dropped with an error log. */
  isPermanent?: (err: unknown) => boolean;
}

export interface Outbox<P> {
  /** Stores the item (same id twice is stored once) and tries to deliver it right away. */
  send(id: string, payload: P): Promise<{ delivered: boolean }>;
  /** Delivers every due item now; returns how many were delivered. */
  drain(): Promise<number>;
  pending(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const LEASE_MS = 30_000;

/**
 * A durable delivery queue: what must reach a peer (an audit entry, a job's callback, an
 * artifact) is written to the store first and retried with backoff until the peer accepts it,
 * across restarts. Deliveries must be idempotent on the receiving side (same id, same effect).
 */
export function createOutbox<P>(options: OutboxOptions<P>): Outbox<P> {
  const items = options.store.collection<OutboxDoc>(`outbox_${options.name}`, {
    indexes: [{ fields: ['nextAttemptAt'] }],
  });
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  async function attempt(id: string): Promise<boolean> {
    const now = Date.now();
    const claim = await items.update(id, (doc) => {
      if (!doc || doc.leaseUntil > now) return ABORT;
      return { ...doc, leaseUntil: now + LEASE_MS };
    });
    if (!claim.changed || !claim.doc) return false;
    const doc = claim.doc;
    try {
      await options.deliver(doc.payload as P, id);
      await items.delete(id);
      return true;
    } catch (err) {
      if (options.isPermanent?.(err)) {
        options.logger?.error({ err, outbox: options.name, id }, 'outbox item refused permanently; dropped');
        await items.delete(id);
        return false;
      }
      const attempts = doc.attempts + 1;
      const backoff = Math.min(maxBackoff, 250 * 2 ** Math.min(attempts, 16));
      await items.update(id, (current) =>
        current
          ? {
              ...current,
              attempts,
              leaseUntil: 0,
              nextAttemptAt: Date.now() + backoff,
              lastError: String((err as Error).message ?? err),
            }
          : ABORT,
      );
      options.logger?.warn(
        { outbox: options.name, id, attempts, retryInMs: backoff },
        'delivery failed; will retry',
      );
      return false;
    }
  }

  async function drain(): Promise<number> {
    let delivered = 0;
    const due = await items.query({
      where: [['nextAttemptAt', '<=', Date.now()]],
      orderBy: [{ field: 'nextAttemptAt' }],
      limit: 50,
    });
    for (const doc of due.items) if (await attempt(doc.id)) delivered++;
    return delivered;
  }

  const tick = () => {
    if (stopped) return;
    running = drain()
      .catch((err) => options.logger?.warn({ err, outbox: options.name }, 'outbox drain failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.pollIntervalMs ?? 500);
      });
  };

  return {
    async send(id, payload) {
      const doc: OutboxDoc = {
        id,
        payload,
        attempts: 0,
        nextAttemptAt: Date.now(),
        leaseUntil: 0,
        lastError: null,
        createdAt: new Date().toISOString(),
      };
      try {
        await items.create(id, doc);
      } catch (err) {
        if (!(err instanceof StoreConflictError)) throw err;
      }
      return { delivered: await attempt(id) };
    },
    drain,
    pending: () => items.count(),
    start() {
      stopped = false;
      if (!timer) timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
