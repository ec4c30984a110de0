import type { VtoBackendName, VtoJob, VtoJobError } from '@hs/contracts';

/**
 * A try-on job as stored: the public VtoJob plus the claim of the worker running it.
 * QUEUED → RUNNING (claimed by one worker, with a lease) → SUCCEEDED | FAILED. A RUNNING job
 * whose lease ran out (its worker crashed) goes back to QUEUED, up to MAX_ATTEMPTS claims; so
 * does one whose run hit a passing fault (storage full or unwritable), after a backoff.
 * Every function is pure and returns null when the transition does not apply, so it can run
 * inside the store's atomic update.
 */
export type StoredVtoJob = VtoJob & {
  workerId: string | null;
  leaseUntil: number;
  /** A QUEUED job put back after a passing fault is not claimed before this time (epoch ms). */
  notBefore?: number;
  /** The W3C trace of the request that submitted it. */
  traceparent?: string | null;
  /**
   * The caller who queued it (X-User-Id), whom VTO_MAX_ACTIVE_JOBS_PER_USER counts it for; the
   * member it is for (`memberId`) may be someone else. Absent on jobs from before it was kept.
   */
  requesterId?: string;
};

export const MAX_ATTEMPTS = 3;

export function newJob(input: {
  jobId: string;
  householdId: string;
  memberId: string;
  requesterId?: string;
  personImageRef: string;
  garmentImageRef: string;
  backend: VtoBackendName;
  now: string;
}): StoredVtoJob {
  return {
    jobId: input.jobId,
    householdId: input.householdId,
    memberId: input.memberId,
    personImageRef: input.personImageRef,
    garmentImageRef: input.garmentImageRef,
    status: 'QUEUED',
    resultImageRef: null,
    error: null,
    backend: input.backend,
    attempts: 0,
    createdAt: input.now,
    updatedAt: input.now,
    workerId: null,
    leaseUntil: 0,
    ...(input.requesterId ? { requesterId: input.requesterId } : {}),
  };
}

export function claim(
  job: StoredVtoJob | null,
  workerId: string,
  now: string,
  leaseUntil: number,
): StoredVtoJob | null {
  if (job?.status !== 'QUEUED' || (job.notBefore ?? 0) > Date.parse(now)) return null;
  return {
    ...job,
    status: 'RUNNING',
    attempts: job.attempts + 1,
    workerId,
    leaseUntil,
    notBefore: 0,
    updatedAt: now,
  };
}

/** One attempt at a job: the worker that claimed it and the attempt's number. */
export type Held = { workerId: string; attempts: number };

/** Whether `held` still runs the job: a run that lost it (its lease ran out, the job was claimed again, by this worker too) changes nothing. */
const ownedRunning = (job: StoredVtoJob | null, held: Held): job is StoredVtoJob =>
  !!job && job.status === 'RUNNING' && job.workerId === held.workerId && job.attempts === held.attempts;

/** The lease of the attempt a worker runs, extended; null once that attempt no longer holds the job. */
export function renewLease(job: StoredVtoJob | null, held: Held, leaseUntil: number): StoredVtoJob | null {
  if (!ownedRunning(job, held)) return null;
  return { ...job, leaseUntil };
}

export function succeed(job: StoredVtoJob | null, held: Held, resultImageRef: string, now: string) {
  if (!ownedRunning(job, held)) return null;
  return {
    ...job,
    status: 'SUCCEEDED' as const,
    resultImageRef,
    workerId: null,
    leaseUntil: 0,
    updatedAt: now,
  };
}

export function fail(job: StoredVtoJob | null, held: Held, error: VtoJobError, now: string) {
  if (!ownedRunning(job, held)) return null;
  return { ...job, status: 'FAILED' as const, error, workerId: null, leaseUntil: 0, updatedAt: now };
}

/**
 * A run that hit a passing fault (the result could not be stored: disk full, not writable) goes
 * back to the queue until `notBefore`, so the family's try-on still comes once the storage
 * recovers; after its last attempt it ends FAILED with `error`.
 */
export function retryLater(
  job: StoredVtoJob | null,
  held: Held,
  error: VtoJobError,
  now: string,
  notBefore: number,
): StoredVtoJob | null {
  if (!ownedRunning(job, held)) return null;
  if (job.attempts >= MAX_ATTEMPTS) return fail(job, held, error, now);
  return { ...job, status: 'QUEUED', workerId: null, leaseUntil: 0, notBefore, updatedAt: now };
}

/** Gives a job back to the queue: its worker is shutting down (workerId) or lost it (lease over). */
export function requeue(
  job: StoredVtoJob | null,
  by: { held: Held } | { leaseExpiredBefore: number },
  now: string,
): StoredVtoJob | null {
  if (job?.status !== 'RUNNING') return null;
  // A graceful stop counts the attempt like a crash does, so a job that keeps a worker busy
  // through restarts still ends after MAX_ATTEMPTS.
  if ('held' in by) {
    if (!ownedRunning(job, by.held)) return null;
  } else if (job.leaseUntil >= by.leaseExpiredBefore) return null;
  if (job.attempts >= MAX_ATTEMPTS)
    return {
      ...job,
      status: 'FAILED',
      error: {
        code: 'INTERNAL_ERROR',
        message: `The try-on job was interrupted ${job.attempts} times and was abandoned; submit it again.`,
      },
      workerId: null,
      leaseUntil: 0,
      updatedAt: now,
    };
  return { ...job, status: 'QUEUED', workerId: null, leaseUntil: 0, updatedAt: now };
}

/** What clients see: the stored job without the worker's claim. */
export function publicJob(job: StoredVtoJob): VtoJob {
  const { workerId: _w, leaseUntil: _l, notBefore: _n, requesterId: _r, ...rest } = job;
  return rest;
}
