import { type AuditWriter, recordDeadLetteredJob } from '@hs/audit-client';
import { retryTransient } from '@hs/jobs';
import type { Logger } from 'pino';
import type { CartExecutor } from '../adapters/cart-executor.ts';
import type { GatewayCallbacks } from '../adapters/gateway-callbacks.ts';
import type { JobRepository } from '../adapters/job-repository.ts';
import { claim, expire, fail, type StoredJob, succeed } from '../domain/job-machine.ts';

export type RunnerSettings = {
  maxAttempts: number;
  leaseMs: number;
  jobTimeoutMs: number;
  /** How long past an abort the executor may take to answer with its own evidence (default 2 s). */
  abandonGraceMs?: number;
};

const DEFAULT_ABANDON_GRACE_MS = 2_000;

/** What `prepare` was raced against: the executor had not answered after its abort and its grace. */
const ABANDONED = Symbol('abandoned');

/**
 * Resolves `graceMs` after `signal` aborts. An executor stuck in a call that ignores the abort (a
 * frozen browser) must not hold its job, its lease and a worker slot past the deadline.
 */
function abandonedAfter(
  signal: AbortSignal,
  graceMs: number,
): { done: Promise<typeof ABANDONED>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const done = new Promise<typeof ABANDONED>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(ABANDONED), graceMs);
    };
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    done,
    cancel: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Runs one job as named steps, each one atomic in the store:
 *  1. claim: QUEUED → RUNNING (one worker wins), attempts + 1, lease taken;
 *  2. prepare: the executor, bounded by CARTPREP_JOB_TIMEOUT_SECONDS: aborted at the deadline and,
 *     if it still has not answered shortly after, abandoned (FAILED TIMEOUT, lease no longer renewed);
 *  3. record: RUNNING → SUCCEEDED | FAILED with `callbackPending`, only if this attempt still
 *     holds the job (a lease that expired meanwhile lost it);
 *  4. report: the gateway callback goes into the outbox, then `callbackPending` is cleared.
 * A crash after 1 is repaired by lease expiry (retry or FAILED INTERNAL_ERROR), after 3 by
 * `recover`, which re-queues the callbacks still pending (the outbox dedupes them). A write of
 * 3 or 4 that finds the store briefly unusable (SQLITE_BUSY: a backup or an sqlite shell holds its
 * lock) is tried again with a short backoff while the attempt's lease holds, so the job finishes
 * moments after the lock goes; if it still fails the worker loop hands the job back (`handBack`).
 */
export function createJobRunner(deps: {
  jobs: JobRepository;
  executor: CartExecutor;
  callbacks: GatewayCallbacks;
  settings: RunnerSettings;
  audit: AuditWriter;
  logger?: Logger | undefined;
}) {
  const { jobs, executor, callbacks, settings } = deps;

  /** A job FAILED because its attempts ran out (not a shop's answer) goes into the household's log. */
  const deadLettered = (job: StoredJob) =>
    recordDeadLetteredJob(deps.audit, job, {
      jobType: 'CARTPREP_JOB',
      reason: job.errorMessage ?? 'attempts exhausted',
      logger: deps.logger,
    });

  async function report(job: StoredJob): Promise<void> {
    await callbacks.report(job);
    await jobs.change(job.jobId, (j) => (j.callbackPending ? { ...j, callbackPending: false } : null));
  }

  /** A guarded write of this attempt, tried again while the store is briefly unusable and `until`. */
  const durably = <T>(jobId: string, until: () => number, op: () => Promise<T>): Promise<T> =>
    retryTransient(op, {
      until,
      onRetry: (err, tries) => deps.logger?.warn({ err, jobId, tries }, 'cart-prep job write retried'),
    });

  const holds = (attempt: StoredJob) => (j: StoredJob) =>
    j.status === 'RUNNING' && j.attempts === attempt.attempts;

  /**
   * Keeps the lease of a healthy attempt alive (every third of the lease), so only a dead worker
   * loses its job: without it a job slower than its lease was re-queued while still running and
   * prepared twice. If the job was taken from this attempt anyway, its executor is stopped.
   */
  function keepLease(running: StoredJob, still: (j: StoredJob) => boolean) {
    const lost = new AbortController();
    /** Until when this attempt's lease is known to hold (its last renewal that landed). */
    let heldUntil = running.leaseUntil;
    const timer = setInterval(
      () => {
        const until = Date.now() + settings.leaseMs;
        jobs
          .change(running.jobId, (j) => (still(j) ? { ...j, leaseUntil: until } : null))
          .then((renewed) => {
            if (!renewed) lost.abort(new Error('the job is no longer held by this attempt'));
            else heldUntil = until;
          })
          .catch((err) => deps.logger?.warn({ err, jobId: running.jobId }, 'lease renewal failed'));
      },
      Math.max(10, Math.floor(settings.leaseMs / 3)),
    );
    return { signal: lost.signal, stop: () => clearInterval(timer), heldUntil: () => heldUntil };
  }

  /** A stopping worker hands the job back at once, its attempt counted (as a crash would). */
  async function handBack(
    running: StoredJob,
    still: (j: StoredJob) => boolean,
    why = 'handed a job back on shutdown',
  ): Promise<StoredJob> {
    const nowMs = Date.now();
    const next = await jobs.change(running.jobId, (j) =>
      still(j) ? expire({ ...j, leaseUntil: 0 }, nowMs, settings.maxAttempts) : null,
    );
    deps.logger?.info({ jobId: running.jobId, status: next?.status }, why);
    if (next?.status === 'FAILED') {
      await deadLettered(next);
      await report(next);
    }
    return next ?? ((await jobs.get(running.jobId)) as StoredJob);
  }

  /** `stopping` aborts when the worker shuts down: the job then goes back to the queue. */
  async function execute(running: StoredJob, stopping?: AbortSignal): Promise<StoredJob> {
    const still = holds(running);
    let outcome: Awaited<ReturnType<CartExecutor['prepare']>> | typeof ABANDONED;
    const lease = keepLease(running, still);
    const signal = AbortSignal.any([
      AbortSignal.timeout(settings.jobTimeoutMs),
      lease.signal,
      ...(stopping ? [stopping] : []),
    ]);
    const abandoned = abandonedAfter(signal, settings.abandonGraceMs ?? DEFAULT_ABANDON_GRACE_MS);
    try {
      const preparing = executor.prepare(running, signal);
      // An abandoned executor may still fail later; that is no longer this job's business.
      preparing.catch(() => {});
      outcome = await Promise.race([preparing, abandoned.done]);
    } catch (err) {
      lease.stop();
      abandoned.cancel();
      if (stopping?.aborted) return handBack(running, still);
      // The executor's own fault: another attempt may succeed, until the last one.
      deps.logger?.warn({ err, jobId: running.jobId, attempt: running.attempts }, 'cart executor failed');
      const now = new Date().toISOString();
      const next = await durably(running.jobId, lease.heldUntil, () =>
        jobs.change(running.jobId, (j) =>
          !still(j)
            ? null
            : j.attempts >= settings.maxAttempts
              ? fail(j, 'INTERNAL_ERROR', 'Cart preparation failed inside the service', now)
              : { ...j, status: 'QUEUED', leaseUntil: 0, updatedAt: now },
        ),
      );
      if (next?.status === 'FAILED') {
        await deadLettered(next);
        await durably(running.jobId, lease.heldUntil, () => report(next));
      }
      return next ?? ((await jobs.get(running.jobId)) as StoredJob);
    }
    lease.stop();
    abandoned.cancel();
    if (stopping?.aborted) return handBack(running, still);
    if (outcome === ABANDONED) {
      deps.logger?.warn({ jobId: running.jobId }, 'cart executor did not stop at the deadline; abandoned');
      // Its page gave nothing in time either: the evidence says there is no screenshot.
      outcome = {
        ok: false,
        errorCode: 'TIMEOUT',
        message: 'Cart preparation passed its deadline',
        evidence: {
          finalUrl: null,
          screenshotRef: null,
          reason:
            'Cart preparation passed its deadline (no screenshot could be taken: the browser did not answer)',
        },
      };
    }
    const result = outcome;
    const now = new Date().toISOString();
    const finished = await durably(running.jobId, lease.heldUntil, () =>
      jobs.change(running.jobId, (j) =>
        still(j)
          ? result.ok
            ? succeed(j, result.cart, now)
            : fail(j, result.errorCode, result.message, now, result.evidence ?? null)
          : null,
      ),
    );
    // Finished: a callback that still cannot be queued is re-queued by `recover` (callbackPending).
    if (finished) await durably(running.jobId, lease.heldUntil, () => report(finished));
    return finished ?? ((await jobs.get(running.jobId)) as StoredJob);
  }

  return {
    /** Step 1; null when another worker has it or it is not QUEUED. */
    claim: (jobId: string) => jobs.change(jobId, (j) => claim(j, Date.now(), settings.leaseMs)),
    execute,
    /**
     * For the worker loop: a run that failed on a briefly unusable store gives its job back to
     * the queue (attempt counted; FAILED after the last), only while this attempt still holds it.
     */
    handBack: (running: StoredJob) =>
      handBack(running, holds(running), 'handed a job back after a store failure'),
    /** Expired leases back to QUEUED (or FAILED after the last attempt), pending callbacks re-queued. */
    async recover(): Promise<void> {
      const nowMs = Date.now();
      for (const stale of await jobs.leaseExpired(nowMs)) {
        const next = await jobs.change(stale.jobId, (j) => expire(j, nowMs, settings.maxAttempts));
        if (next)
          deps.logger?.warn(
            { jobId: next.jobId, status: next.status },
            'recovered a job whose worker stopped',
          );
        if (next?.status === 'FAILED') await deadLettered(next);
      }
      for (const job of await jobs.callbackPending()) await report(job);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
