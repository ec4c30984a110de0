import { StoreUnavailableError } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { createJobLoop, retryTransient } from '../src/index.ts';

type Job = { jobId: string };

const busy = () => new StoreUnavailableError('SQLITE_BUSY', 'Storage is busy: the change was not saved');

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const full = () => new StoreUnavailableError('SQLITE_FULL', 'Storage is full: the change was not saved');

/** A loop over one queued job; a job `handBack` takes without throwing goes back on the queue. */
function loopOverOneJob(run: () => Promise<void>, handBack: (job: Job) => Promise<void>) {
  const queue: Job[] = [{ jobId: 'job_1' }];
  return createJobLoop<Job, Job>({
    label: 'test',
    concurrency: 1,
    pollMs: 60_000,
    recoverEveryMs: 60_000,
    recover: async () => {},
    queued: async (limit) => queue.slice(0, limit),
    claim: async (candidate) => {
      const at = queue.findIndex((j) => j.jobId === candidate.jobId);
      return at === -1 ? null : (queue.splice(at, 1)[0] ?? null);
    },
    run,
    handBack: async (job) => {
      await handBack(job);
      queue.push(job);
    },
    handBackWithinMs: 60_000,
  });
}

describe('job loop: a run stopped by a briefly unusable store', () => {
  it('hands the job back as soon as the store answers again, holding its slot meanwhile', async () => {
    let lockedUntil = 0;
    const handedBack: string[] = [];
    let handBackTries = 0;
    let runs = 0;
    const loop = loopOverOneJob(
      async () => {
        runs++;
        if (runs === 1) {
          // The store locks while the job runs: its write fails, the lock lasts another 600 ms.
          lockedUntil = Date.now() + 600;
          throw busy();
        }
      },
      async (job) => {
        handBackTries++;
        if (Date.now() < lockedUntil) throw busy();
        handedBack.push(job.jobId);
      },
    );
    loop.start();
    await until(() => handedBack.length === 1);
    const late = Date.now() - lockedUntil;
    expect(late).toBeLessThan(1_200);
    expect(handBackTries).toBeGreaterThan(1);
    // Handed back, the job runs again (a wake when its slot frees).
    await until(() => runs === 2);
    await loop.stop();
  });

  it.each([
    ['a bug', () => new Error('a bug')],
    ['a full disk (a store fault that does not pass by itself)', full],
  ])(
    'leaves a job alone when the run failed otherwise, %s (its lease and recovery deal with it)',
    async (_what, failure) => {
      let handBacks = 0;
      let runs = 0;
      const loop = loopOverOneJob(
        async () => {
          runs++;
          throw failure();
        },
        async () => {
          handBacks++;
        },
      );
      loop.start();
      await until(() => runs === 1);
      await new Promise((r) => setTimeout(r, 50));
      expect(handBacks).toBe(0);
      await loop.stop();
    },
  );
});

describe('retryTransient', () => {
  it('retries a write refused by a busy store until it lands, and no other error', async () => {
    let tries = 0;
    const lockedUntil = Date.now() + 300;
    const result = await retryTransient(
      async () => {
        tries++;
        if (Date.now() < lockedUntil) throw busy();
        return 'saved';
      },
      { until: () => Date.now() + 10_000 },
    );
    expect(result).toBe('saved');
    expect(tries).toBeGreaterThan(1);
    await expect(
      retryTransient(
        async () => {
          throw new Error('not the store');
        },
        { until: () => Date.now() + 10_000 },
      ),
    ).rejects.toThrow('not the store');
    // A full disk does not pass by itself: not retried either.
    let fullTries = 0;
    await expect(
      retryTransient(
        async () => {
          fullTries++;
          throw full();
        },
        { until: () => Date.now() + 10_000 },
      ),
    ).rejects.toThrow('Storage is full');
    expect(fullTries).toBe(1);
  });

  it('gives up with the store error once the lease would run out', async () => {
    const started = Date.now();
    await expect(
      retryTransient(async () => Promise.reject(busy()), { until: () => started + 300 }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
