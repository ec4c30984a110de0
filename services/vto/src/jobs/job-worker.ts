import { type AuditWriter, recordDeadLetteredJob } from '@hs/audit-client';
import { createJobLoop, isTransientStoreError, retryTransient, WorkerStopping } from '@hs/jobs';
import { newId, nowIso } from '@hs/service-kit';
import type { Logger } from 'pino';
import type { JobRepository } from '../adapters/job-repository.ts';
import { passingStorageFault } from '../adapters/storage-fault.ts';
import { TryOnFailure } from '../domain/try-on-failure.ts';
import {
  claim,
  fail,
  type Held,
  MAX_ATTEMPTS,
  renewLease,
  requeue,
  retryLater,
  type StoredVtoJob,
  succeed,
} from '../domain/vto-job-machine.ts';
import type { JobProcessor } from './process-job.ts';

export interface JobWorkerOptions {
  jobs: JobRepository;
  process: JobProcessor;
  concurrency: number;
  pollIntervalMs: number;
  /** Longest a job may run before it ends FAILED with TIMEOUT. */
  deadlineMs: number;
  /** Where a job abandoned after its last attempt is reported (SYSTEM JOB_DEAD_LETTERED). */
  audit: AuditWriter;
  logger?: Logger | undefined;
}

const SWEEP_EVERY_MS = 30_000;
/**
 * A running job's lease, renewed every third of it while its worker lives: a job whose worker
 * died is found by the sweep within a lease and a sweep (about a minute), so its household's and
 * its requester's places come back then, not after the job's whole deadline.
 */
export const LEASE_MS = 30_000;

/** Why a run stops when its lease renewal finds another attempt holding the job. */
class LeaseLost extends Error {
  constructor() {
    super('the try-on job is no longer held by this attempt');
  }
}
/**
 * Wait before a job that hit a passing storage fault runs again: 30 s, then 60 s. Long enough for
 * an operator's alert on a full disk to be acted on, short enough that the family still gets the
 * picture in the same sitting.
 */
export const STORAGE_RETRY_BASE_MS = 30_000;
const STORAGE_RETRY_MAX_MS = 5 * 60_000;
const storageRetryDelayMs = (attempts: number) =>
  Math.min(STORAGE_RETRY_MAX_MS, STORAGE_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));

/**
 * Runs queued try-on jobs in the background, at most `concurrency` at a time. A claim carries a
 * lease (LEASE_MS) renewed while the job runs: a RUNNING job whose lease ran out was left by a
 * crashed worker and goes back to the queue (on start and then periodically). On a graceful
 * stop the running jobs are handed back to the queue.
 */
export function createJobWorker(options: JobWorkerOptions, leaseMs = LEASE_MS) {
  const workerId = newId('wrk', 8);
  const log = options.logger;
  /** This worker's attempt at a job it claimed (`job` as the claim left it). */
  const heldBy = (job: StoredVtoJob): Held => ({ workerId, attempts: job.attempts });

  /** Renews the running attempt's lease; aborts the run once another worker has the job. */
  function keepLease(job: StoredVtoJob) {
    const lost = new AbortController();
    const held: Held = { workerId, attempts: job.attempts };
    const timer = setInterval(
      () => {
        options.jobs
          .transition(job.jobId, (j) => renewLease(j, held, Date.now() + leaseMs))
          .then((renewed) => {
            if (!renewed) lost.abort(new LeaseLost());
          })
          .catch((err: unknown) => log?.warn({ err, jobId: job.jobId }, 'try-on lease renewal failed'));
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    return { signal: lost.signal, stop: () => clearInterval(timer) };
  }

  /** Requeued, or FAILED for good once MAX_ATTEMPTS claims were interrupted: then audited. */
  async function giveBack(jobId: string, by: Parameters<typeof requeue>[1]): Promise<void> {
    const changed = await options.jobs.transition(jobId, (j) => requeue(j, by, nowIso()));
    if (changed?.status === 'FAILED')
      await recordDeadLetteredJob(options.audit, changed, {
        jobType: 'VTO_JOB',
        reason: changed.error?.message ?? 'attempts exhausted',
        logger: log,
      });
    if (changed && 'leaseExpiredBefore' in by)
      log?.warn({ jobId, status: changed.status }, 'requeued abandoned try-on job');
  }

  async function sweepAbandoned(): Promise<void> {
    const now = Date.now();
    for (const job of await options.jobs.abandoned(now))
      await giveBack(job.jobId, { leaseExpiredBefore: now });
  }

  async function finish(job: StoredVtoJob, signal: AbortSignal, outcome: { ref: string } | { err: unknown }) {
    if ('ref' in outcome) {
      // A store briefly locked (SQLITE_BUSY) is waited out while the lease (renewed meanwhile) holds.
      const holdsUntil = Date.now() + Math.floor(leaseMs / 2);
      await retryTransient(
        () => options.jobs.transition(job.jobId, (j) => succeed(j, heldBy(job), outcome.ref, nowIso())),
        { until: () => holdsUntil },
      );
      return;
    }
    // The first abort wins: a job past its deadline fails even if the worker stops meanwhile.
    const reason = signal.aborted ? signal.reason : outcome.err;
    // Another attempt has the job now (this one's lease ran out): its outcome is that attempt's.
    if (reason instanceof LeaseLost) {
      log?.warn({ jobId: job.jobId, attempts: job.attempts }, 'try-on run stopped: its job was taken over');
      return;
    }
    if (reason instanceof WorkerStopping) {
      await giveBack(job.jobId, { held: heldBy(job) });
      return;
    }
    const storageFault = passingStorageFault(reason);
    if (storageFault !== null) {
      await retryAfterStorageFault(job, storageFault);
      return;
    }
    let error = { code: 'INTERNAL_ERROR', message: 'The try-on job failed unexpectedly' };
    if (reason instanceof TryOnFailure) error = reason.toJobError();
    else log?.error({ err: reason, jobId: job.jobId }, 'try-on job failed unexpectedly');
    await options.jobs.transition(job.jobId, (j) => fail(j, heldBy(job), error, nowIso()));
  }

  /**
   * The storage could not take the result (or give an input) right now: back to the queue after
   * a backoff, FAILED INTERNAL_ERROR (a server-side error) once the attempts are used up, and
   * then audited like any job out of attempts.
   */
  async function retryAfterStorageFault(job: StoredVtoJob, fault: string): Promise<void> {
    log?.warn({ jobId: job.jobId, attempts: job.attempts, fault }, 'try-on job hit a storage fault');
    const error = {
      code: 'INTERNAL_ERROR',
      message: `The try-on could not be finished in ${MAX_ATTEMPTS} attempts because of a storage fault: ${fault}. Submit it again later.`,
    };
    const notBefore = Date.now() + storageRetryDelayMs(job.attempts);
    const changed = await options.jobs.transition(job.jobId, (j) =>
      retryLater(j, heldBy(job), error, nowIso(), notBefore),
    );
    if (changed?.status === 'FAILED')
      await recordDeadLetteredJob(options.audit, changed, {
        jobType: 'VTO_JOB',
        reason: error.message,
        logger: log,
      });
  }

  async function run(job: StoredVtoJob, stopping: AbortSignal): Promise<void> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () =>
        deadline.abort(
          new TryOnFailure('TIMEOUT', `The try-on job did not finish within ${options.deadlineMs} ms`),
        ),
      options.deadlineMs,
    );
    const lease = keepLease(job);
    const signal = AbortSignal.any([stopping, deadline.signal, lease.signal]);
    try {
      const outcome = await options.process(job, signal).then(
        (ref) => ({ ref }),
        (err: unknown) => ({ err }),
      );
      await finish(job, signal, outcome);
    } catch (err) {
      // The loop hands a job stopped by a briefly unusable store back to the queue (`handBack`).
      if (isTransientStoreError(err)) throw err;
      log?.error({ err, jobId: job.jobId }, 'could not record the try-on job outcome');
    } finally {
      clearTimeout(timer);
      lease.stop();
    }
  }

  const loop = createJobLoop({
    label: 'try-on',
    concurrency: options.concurrency,
    pollMs: options.pollIntervalMs,
    recoverEveryMs: SWEEP_EVERY_MS,
    recover: sweepAbandoned,
    queued: (limit) => options.jobs.queued(limit),
    backlog: () => options.jobs.backlog(),
    claim: (candidate: StoredVtoJob) =>
      options.jobs.transition(candidate.jobId, (j) => claim(j, workerId, nowIso(), Date.now() + leaseMs)),
    run,
    // Not left RUNNING under a live worker's lease until the sweep: back to the queue once it can.
    handBack: (job: StoredVtoJob) => giveBack(job.jobId, { held: heldBy(job) }),
    handBackWithinMs: leaseMs,
    logger: log,
  });
  return { workerId, ...loop };
}

export type JobWorker = ReturnType<typeof createJobWorker>;
