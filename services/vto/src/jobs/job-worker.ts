import { newId, nowIso } from '@hs/service-kit';
import type { Logger } from 'pino';
import type { JobRepository } from '../adapters/job-repository.ts';
import { TryOnFailure } from '../domain/try-on-failure.ts';
import { claim, fail, requeue, type StoredVtoJob, succeed } from '../domain/vto-job-machine.ts';
import type { JobProcessor } from './process-job.ts';

export interface JobWorkerOptions {
  jobs: JobRepository;
  process: JobProcessor;
  concurrency: number;
  pollIntervalMs: number;
  /** Longest a job may run before it ends FAILED with TIMEOUT. */
  deadlineMs: number;
  logger?: Logger | undefined;
}

const SHUTDOWN = new Error('worker shutting down');
const SWEEP_EVERY_MS = 30_000;

/**
 * Runs queued try-on jobs in the background, at most `concurrency` at a time. Jobs are claimed
 * with the store's atomic update, so several replicas can share one queue without running a
 * job twice. A claim carries a lease a little longer than the job's deadline: a RUNNING job
 * whose lease ran out was left by a crashed worker and goes back to the queue (on start and
 * then periodically). On a graceful stop the running jobs are handed back to the queue.
 */
export function createJobWorker(options: JobWorkerOptions) {
  const workerId = newId('wrk', 8);
  const leaseMs = options.deadlineMs + 30_000;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let again = false;
  let stopped = true;
  let lastSweep = 0;
  const log = options.logger;

  async function sweepAbandoned(): Promise<void> {
    const now = Date.now();
    lastSweep = now;
    for (const job of await options.jobs.abandoned(now)) {
      const changed = await options.jobs.transition(job.jobId, (j) =>
        requeue(j, { leaseExpiredBefore: now }, nowIso()),
      );
      if (changed) log?.warn({ jobId: job.jobId, status: changed.status }, 'requeued abandoned try-on job');
    }
  }

  async function finish(
    job: StoredVtoJob,
    controller: AbortController,
    outcome: { ref: string } | { err: unknown },
  ) {
    if ('ref' in outcome) {
      await options.jobs.transition(job.jobId, (j) => succeed(j, workerId, outcome.ref, nowIso()));
      return;
    }
    const reason = controller.signal.aborted ? controller.signal.reason : outcome.err;
    if (reason === SHUTDOWN) {
      await options.jobs.transition(job.jobId, (j) => requeue(j, { workerId }, nowIso()));
      return;
    }
    let error = { code: 'INTERNAL_ERROR', message: 'The try-on job failed unexpectedly' };
    if (reason instanceof TryOnFailure) error = reason.toJobError();
    else log?.error({ err: reason, jobId: job.jobId }, 'try-on job failed unexpectedly');
    await options.jobs.transition(job.jobId, (j) => fail(j, workerId, error, nowIso()));
  }

  function run(job: StoredVtoJob): void {
    const controller = new AbortController();
    const deadline = setTimeout(
      () =>
        controller.abort(
          new TryOnFailure('TIMEOUT', `The try-on job did not finish within ${options.deadlineMs} ms`),
        ),
      options.deadlineMs,
    );
    const done = options
      .process(job, controller.signal)
      .then(
        (ref) => finish(job, controller, { ref }),
        (err: unknown) => finish(job, controller, { err }),
      )
      .catch((err: unknown) =>
        log?.error({ err, jobId: job.jobId }, 'could not record the try-on job outcome'),
      )
      .finally(() => {
        clearTimeout(deadline);
        running.delete(job.jobId);
        kick();
      });
    running.set(job.jobId, { controller, done });
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    try {
      if (Date.now() - lastSweep >= SWEEP_EVERY_MS) await sweepAbandoned();
      const free = options.concurrency - running.size;
      if (free > 0) {
        for (const candidate of await options.jobs.queued(free * 2)) {
          if (stopped || running.size >= options.concurrency) break;
          const claimed = await options.jobs.transition(candidate.jobId, (j) =>
            claim(j, workerId, nowIso(), Date.now() + leaseMs),
          );
          if (claimed) run(claimed);
        }
      }
    } catch (err) {
      log?.error({ err }, 'try-on worker tick failed');
    } finally {
      ticking = false;
      schedule(again ? 0 : options.pollIntervalMs);
      again = false;
    }
  }

  function schedule(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  }

  /** Looks for work now (a job was just submitted or a slot freed up). */
  function kick(): void {
    if (ticking) again = true;
    else schedule(0);
  }

  return {
    workerId,
    start(): void {
      if (!stopped) return;
      stopped = false;
      lastSweep = 0;
      schedule(0);
    },
    kick,
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      for (const { controller } of running.values()) controller.abort(SHUTDOWN);
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}

export type JobWorker = ReturnType<typeof createJobWorker>;
