// A running try-on keeps its lease alive, so the lease can be short: a worker that died lets its
// job (and the household's and requester's places it holds) go within about a minute, where the
// lease used to last the whole deadline and more (130 s), while a live worker's long job is never
// taken from it.
import { createStore, type Store } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobRepository } from '../src/adapters/job-repository.ts';
import { newJob, type StoredVtoJob } from '../src/domain/vto-job-machine.ts';
import { createJobWorker } from '../src/jobs/job-worker.ts';
import type { JobProcessor } from '../src/jobs/process-job.ts';
import { HH } from './helpers.ts';

const LEASE_MS = 300;
const noAudit = { outbox: null, record: async () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a running try-on’s lease', () => {
  let store: Store;
  beforeEach(() => {
    store = createStore({ backend: 'inmemory' });
  });
  afterEach(() => store.close());

  /** A worker on `jobs` with a lease of LEASE_MS, running each job with `process`. */
  const workerFor = (jobs: ReturnType<typeof createJobRepository>, process: JobProcessor) =>
    createJobWorker(
      { jobs, concurrency: 1, pollIntervalMs: 20, deadlineMs: 10_000, audit: noAudit, process },
      LEASE_MS,
    );

  async function seed() {
    const jobs = createJobRepository(store);
    const job = newJob({
      jobId: `vto_lease${Math.random().toString(36).slice(2)}`,
      householdId: HH,
      memberId: 'usr_alice',
      personImageRef: 'local://p.png',
      garmentImageRef: 'local://g.png',
      backend: 'inline',
      now: new Date().toISOString(),
    });
    await jobs.create(job, { household: 5, user: 5 });
    return { jobs, jobId: job.jobId };
  }

  it('is renewed while the job runs longer than the lease, so no sweep takes it', async () => {
    const { jobs, jobId } = await seed();
    const seen: StoredVtoJob[] = [];
    const worker = workerFor(jobs, async (job, signal) => {
      // Four leases long; the sweep looks for abandoned jobs twice meanwhile.
      for (let i = 0; i < 4; i++) {
        await sleep(LEASE_MS);
        signal.throwIfAborted();
        expect(await jobs.abandoned(Date.now())).toEqual([]);
        seen.push((await jobs.get(job.householdId, job.jobId))!);
      }
      return 'local://result.png';
    });
    worker.start();
    try {
      await expect
        .poll(async () => (await jobs.get(HH, jobId))?.status, { timeout: 5000, interval: 50 })
        .toBe('SUCCEEDED');
    } finally {
      await worker.stop();
    }
    expect((await jobs.get(HH, jobId))?.attempts).toBe(1);
    // Each look found the lease ahead of the time.
    expect(seen.every((j) => j.status === 'RUNNING' && (j.leaseUntil ?? 0) > Date.parse(j.updatedAt))).toBe(
      true,
    );
  });

  it('stops the run once another attempt has the job, and leaves that attempt’s job alone', async () => {
    const { jobs, jobId } = await seed();
    let aborted: unknown = null;
    const worker = workerFor(
      jobs,
      (_job, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            reject(signal.reason);
          }),
        ),
    );
    worker.start();
    try {
      await expect.poll(async () => (await jobs.get(HH, jobId))?.status, { timeout: 5000 }).toBe('RUNNING');
      // After a stall: the sweep put the job back and this same worker claimed it again.
      await jobs.transition(jobId, (j) => (j ? { ...j, attempts: j.attempts + 1 } : null));
      await expect.poll(() => aborted, { timeout: 2000 }).toBeInstanceOf(Error);
      // The stopped run records nothing: the new attempt's job is untouched (not FAILED).
      await sleep(200);
      expect(await jobs.get(HH, jobId)).toMatchObject({
        status: 'RUNNING',
        attempts: 2,
        workerId: worker.workerId,
      });
    } finally {
      await worker.stop();
    }
  });
});
