import type {
  Cart,
  CartprepEvidence,
  CartprepFailureCode,
  CartprepJob,
  CreateCartprepJobRequest,
} from '@hs/contracts';

/**
 * Cart-prep job lifecycle: QUEUED → RUNNING → SUCCEEDED | FAILED.
 * A RUNNING job holds a lease; when it expires (the worker crashed or hung) the job goes back to
 * QUEUED for another attempt, or to FAILED INTERNAL_ERROR once CARTPREP_MAX_ATTEMPTS are used.
 * A finished job has `callbackPending` until its callback is safely in the outbox.
 */
export type StoredJob = CartprepJob & {
  leaseUntil: number;
  callbackPending: boolean;
  /** The W3C trace of the request that submitted it. */
  traceparent?: string | null;
  /**
   * Whose purchase intent it prepares (CARTPREP_MAX_ACTIVE_JOBS_PER_USER counts by it); absent on
   * jobs from before it was kept and from a gateway that does not send it.
   */
  actorId?: string;
  /** What the simulated executor builds its cart from (the shopper's expectation). */
  hint: { title: string | null; unitPrice: number | null; currency: string | null };
};

export function newJob(
  jobId: string,
  input: Required<Pick<CreateCartprepJobRequest, 'householdId' | 'requestId' | 'url'>> &
    CreateCartprepJobRequest,
  now: string,
): StoredJob {
  return {
    jobId,
    householdId: input.householdId,
    requestId: input.requestId,
    ...(input.actorId ? { actorId: input.actorId } : {}),
    url: input.url,
    size: input.size ?? null,
    quantity: input.quantity ?? 1,
    status: 'QUEUED',
    errorCode: null,
    errorMessage: null,
    cart: null,
    evidence: null,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    leaseUntil: 0,
    callbackPending: false,
    hint: {
      title: input.title ?? null,
      unitPrice: input.unitPrice ?? null,
      currency: input.currency ?? null,
    },
  };
}

export const isFinished = (j: CartprepJob) => j.status === 'SUCCEEDED' || j.status === 'FAILED';

/** QUEUED → RUNNING with a fresh lease and one more attempt; null when not QUEUED. */
export function claim(j: StoredJob, nowMs: number, leaseMs: number): StoredJob | null {
  if (j.status !== 'QUEUED') return null;
  const now = new Date(nowMs).toISOString();
  return {
    ...j,
    status: 'RUNNING',
    attempts: j.attempts + 1,
    leaseUntil: nowMs + leaseMs,
    startedAt: now,
    updatedAt: now,
  };
}

export function succeed(j: StoredJob, cart: Cart, now: string): StoredJob {
  return {
    ...j,
    status: 'SUCCEEDED',
    cart,
    errorCode: null,
    errorMessage: null,
    evidence: null,
    leaseUntil: 0,
    callbackPending: true,
    finishedAt: now,
    updatedAt: now,
  };
}

export function fail(
  j: StoredJob,
  errorCode: CartprepFailureCode,
  message: string,
  now: string,
  evidence: CartprepEvidence | null = null,
): StoredJob {
  return {
    ...j,
    status: 'FAILED',
    errorCode,
    errorMessage: message,
    // Every failed job keeps evidence (decisions): without a page seen, at least why it stopped.
    evidence: evidence ?? { finalUrl: null, screenshotRef: null, reason: message.slice(0, 500) },
    leaseUntil: 0,
    callbackPending: true,
    finishedAt: now,
    updatedAt: now,
  };
}

/** A RUNNING job whose lease ran out: retried, or failed for good after the last attempt. */
export function expire(j: StoredJob, nowMs: number, maxAttempts: number): StoredJob | null {
  if (j.status !== 'RUNNING' || j.leaseUntil > nowMs) return null;
  const now = new Date(nowMs).toISOString();
  if (j.attempts >= maxAttempts)
    return fail(j, 'INTERNAL_ERROR', `Cart preparation did not finish after ${j.attempts} attempts`, now);
  return { ...j, status: 'QUEUED', leaseUntil: 0, updatedAt: now };
}

export function publicJob(j: StoredJob): CartprepJob {
  const { leaseUntil: _l, callbackPending: _c, hint: _h, actorId: _a, ...job } = j;
  // Jobs stored before evidence existed have none.
  return { ...job, evidence: job.evidence ?? null };
}
