import { createJobLoop } from '@hs/jobs';
import type { Logger } from 'pino';
import type { JobRepository } from '../adapters/job-repository.ts';
import type { JobRunner } from './job-runner.ts';

/** Recovery runs this often at most, and twice per lease with short leases. */
const RECOVER_EVERY_MS = 5_000;
const STOP_WAIT_MS = 5_000;

/**
 * Picks QUEUED jobs and runs at most CARTPREP_CONCURRENCY at once. On start it first recovers
 * what a previous process left behind (expired leases, undelivered callbacks), then keeps doing
 * so every few seconds. `wake()` lets a new job start without waiting for the next poll. On stop
 * the running jobs are aborted and go back to the queue (attempt counted); one still running
 * after the stop wait is picked up again through its lease.
 */
export function createWorker(deps: {
  jobs: JobRepository;
  runner: JobRunner;
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  logger?: Logger | undefined;
}) {
  return createJobLoop({
    label: 'cart-prep',
    concurrency: deps.concurrency,
    pollMs: deps.pollMs,
    recoverEveryMs: Math.max(deps.pollMs, Math.min(RECOVER_EVERY_MS, deps.leaseMs / 2)),
    recover: () => deps.runner.recover(),
    queued: (limit) => deps.jobs.queued(limit),
    backlog: () => deps.jobs.backlog(),
    claim: (queued) => deps.runner.claim(queued.jobId),
    // A stopping worker aborts the executor and hands the job back to the queue.
    run: (running, stopping) => deps.runner.execute(running, stopping),
    // A run stopped by a briefly unusable store (SQLITE_BUSY) gives the job back as soon as the
    // store answers again, not after its lease: the lease is for workers that die.
    handBack: (running) => deps.runner.handBack(running),
    handBackWithinMs: deps.leaseMs,
    stopWaitMs: STOP_WAIT_MS,
    logger: deps.logger,
  });
}

export type Worker = ReturnType<typeof createWorker>;
