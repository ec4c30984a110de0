import { runInTrace, serviceMetrics, withoutDeadline } from '@hs/service-kit';
import type { StoreUnavailableError } from '@hs/store';
import type { Logger } from 'pino';
import { isTransientStoreError, retryTransient } from './transient-retry.ts';

/** The reason a running job's signal is aborted with when its worker stops gracefully. */
export class WorkerStopping extends Error {
  constructor() {
    super('worker shutting down');
    this.name = 'WorkerStopping';
  }
}

/** A claimed job; `traceparent` is the trace of the request that submitted it. */
type ClaimedJob = { jobId: string; traceparent?: string | null | undefined };

export interface JobLoopOptions<Candidate, Claimed extends ClaimedJob> {
  /** Names the worker in log lines ("try-on", "cart-prep"). */
  label: string;
  /** Most jobs running at once in this process. */
  concurrency: number;
  pollMs: number;
  /** How often `recover` runs; it also runs first thing after `start`. */
  recoverEveryMs: number;
  /** Repairs what crashed workers left behind (expired leases and the like). */
  recover(): Promise<void>;
  /** Queued jobs, oldest first, at most `limit`. */
  queued(limit: number): Promise<Candidate[]>;
  /** Takes a queued job with one atomic store update; null when another worker won it. */
  claim(candidate: Candidate): Promise<Claimed | null>;
  /**
   * Runs a claimed job to its recorded outcome. `signal` aborts with WorkerStopping on a
   * graceful stop; a job that ignores it is waited for (up to `stopWaitMs`).
   */
  run(job: Claimed, signal: AbortSignal): Promise<unknown>;
  /**
   * Gives a job back after its run failed with a transient store error (StoreUnavailableError:
   * SQLITE_BUSY and the like) that left it RUNNING under this worker's lease: QUEUED again with its
   * attempt counted, as for any retryable failure, and only while this attempt still holds it.
   * Retried with a short backoff for up to `handBackWithinMs`, so the job runs again within
   * moments of the store coming back instead of waiting for its lease to run out. Without it
   * such a job waits for `recover` after its lease.
   */
  handBack?(job: Claimed, err: StoreUnavailableError): Promise<unknown>;
  /** How long `handBack` is retried: the lease the claim took (default 60 s). */
  handBackWithinMs?: number;
  /** Queued jobs and when the oldest was queued, for `/metrics` (read at each scrape). */
  backlog?(): Promise<{ depth: number; oldestQueuedAt: string | null }>;
  /** Longest `stop` waits for running jobs; what is still running is picked up through its lease. */
  stopWaitMs?: number;
  logger?: Logger | undefined;
}

const DEFAULT_HAND_BACK_WITHIN_MS = 60_000;

/**
 * The polling loop of a lease-based job queue in the store: claims queued jobs and runs at
 * most `concurrency` at once; recovers abandoned ones on start and then periodically.
 * Claims are atomic, so several replicas can share one queue without running a job twice.
 */
export function createJobLoop<Candidate, Claimed extends ClaimedJob>(
  options: JobLoopOptions<Candidate, Claimed>,
) {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const log = options.logger;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let lastRecover = 0;
  let uncollect: (() => void) | undefined;
  const queue = { queue: options.label };

  /** A run that failed on a store briefly unusable: the job goes back to the queue once it can. */
  async function giveBack(job: Claimed, err: StoreUnavailableError, signal: AbortSignal): Promise<void> {
    const handBack = options.handBack;
    if (!handBack) return;
    const until = Date.now() + (options.handBackWithinMs ?? DEFAULT_HAND_BACK_WITHIN_MS);
    try {
      await retryTransient(() => handBack(job, err), { until: () => until, signal });
      log?.warn({ jobId: job.jobId }, `${options.label} job handed back after a store failure`);
    } catch (failed) {
      // Its lease still runs out, and `recover` (this process's or another's) takes it then.
      log?.error({ err: failed, jobId: job.jobId }, `${options.label} job could not be handed back`);
    }
  }

  function launch(job: Claimed): void {
    const controller = new AbortController();
    const done = Promise.resolve()
      // The job continues the trace of the request that submitted it.
      .then(() =>
        runInTrace(
          job.traceparent,
          `${options.label} job`,
          () => Promise.resolve(options.run(job, controller.signal)),
          {
            'job.id': job.jobId,
          },
        ),
      )
      .then(
        () => undefined,
        async (err: unknown) => {
          if (!isTransientStoreError(err) || !options.handBack)
            return void log?.error({ err, jobId: job.jobId }, `${options.label} job crashed`);
          log?.warn({ err, jobId: job.jobId }, `${options.label} job stopped on a store failure`);
          await giveBack(job, err, controller.signal);
        },
      )
      .finally(() => {
        running.delete(job.jobId);
        wake();
      });
    running.set(job.jobId, { controller, done });
  }

  async function tick(): Promise<void> {
    try {
      if (Date.now() - lastRecover >= options.recoverEveryMs) {
        lastRecover = Date.now();
        await options.recover();
      }
      const free = options.concurrency - running.size;
      // More candidates than free slots: other replicas may claim some of them first.
      if (free > 0)
        for (const candidate of await options.queued(free * 2)) {
          if (stopped || running.size >= options.concurrency) break;
          const claimed = await options.claim(candidate);
          if (claimed) launch(claimed);
        }
    } catch (err) {
      log?.error({ err }, `${options.label} worker tick failed`);
    }
  }

  function schedule(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    // Free of the deadline of whichever request woke the loop: the timer would otherwise carry it
    // into every later tick, so the jobs, recoveries and callbacks long after it (a job recovered
    // two minutes later) found "no time was left of the request's deadline" on their peer calls.
    timer = setTimeout(() => {
      // One tick at a time, so the concurrency bound holds; a wake during a tick ticks again after it.
      ticking = withoutDeadline(tick).finally(() => {
        ticking = null;
        schedule(again ? 0 : options.pollMs);
        again = false;
      });
    }, ms);
    timer.unref();
  }

  /** Looks for work now (a job was just submitted or a slot freed up). */
  function wake(): void {
    if (ticking) again = true;
    else schedule(0);
  }

  return {
    start(): void {
      if (!stopped) return;
      stopped = false;
      lastRecover = 0;
      const backlog = options.backlog;
      if (backlog)
        uncollect = serviceMetrics.collect(async () => {
          const { depth, oldestQueuedAt } = await backlog();
          const age = oldestQueuedAt ? Math.max(0, (Date.now() - Date.parse(oldestQueuedAt)) / 1000) : 0;
          return [
            { name: 'job_queue_depth', labels: queue, value: depth },
            { name: 'job_queue_oldest_age_seconds', labels: queue, value: age },
          ];
        });
      schedule(0);
    },
    wake,
    /** Stops claiming, aborts running jobs with WorkerStopping and waits for them to settle. */
    async stop(): Promise<void> {
      stopped = true;
      uncollect?.();
      uncollect = undefined;
      clearTimeout(timer);
      await ticking;
      const stopping = new WorkerStopping();
      for (const { controller } of running.values()) controller.abort(stopping);
      const settled = Promise.all([...running.values()].map((r) => r.done));
      if (options.stopWaitMs === undefined) await settled;
      else await Promise.race([settled, new Promise((r) => setTimeout(r, options.stopWaitMs).unref())]);
    },
  };
}

export type JobLoop = ReturnType<typeof createJobLoop>;
