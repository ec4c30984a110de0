import { describe, expect, it } from 'vitest';
import { createJobLoop, WorkerStopping } from '../src/index.ts';

type Job = { jobId: string };

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** An in-memory queue whose jobs run until released (or aborted, when `honourAbort`). */
function harness(options: { concurrency: number; honourAbort?: boolean; stopWaitMs?: number }) {
  const queue: Job[] = [];
  const release = new Map<string, () => void>();
  const aborted: unknown[] = [];
  let recovered = 0;
  let active = 0;
  let peak = 0;
  const loop = createJobLoop<Job, Job>({
    label: 'test',
    concurrency: options.concurrency,
    pollMs: 60_000,
    recoverEveryMs: 60_000,
    recover: async () => {
      recovered++;
    },
    queued: async (limit) => queue.slice(0, limit),
    claim: async (candidate) => {
      const at = queue.findIndex((j) => j.jobId === candidate.jobId);
      return at === -1 ? null : (queue.splice(at, 1)[0] ?? null);
    },
    run: (job, signal) =>
      new Promise<void>((resolve) => {
        active++;
        peak = Math.max(peak, active);
        const done = () => {
          active--;
          release.delete(job.jobId);
          resolve();
        };
        release.set(job.jobId, done);
        if (options.honourAbort)
          signal.addEventListener('abort', () => {
            aborted.push(signal.reason);
            done();
          });
      }),
    ...(options.stopWaitMs === undefined ? {} : { stopWaitMs: options.stopWaitMs }),
  });
  const add = (n: number) => {
    for (let i = 0; i < n; i++) queue.push({ jobId: `job_${queue.length}_${i}` });
  };
  const releaseAll = () => {
    for (const done of [...release.values()]) done();
  };
  return {
    loop,
    queue,
    releaseAll,
    aborted,
    add,
    recovered: () => recovered,
    active: () => active,
    peak: () => peak,
  };
}

describe('job loop', () => {
  it('recovers on start, runs at most `concurrency` jobs, and starts the next when one finishes', async () => {
    const h = harness({ concurrency: 2 });
    h.add(5);
    h.loop.start();
    await until(() => h.active() === 2);
    expect(h.recovered()).toBe(1);
    expect(h.queue).toHaveLength(3);
    while (h.queue.length > 0 || h.active() > 0) {
      h.releaseAll();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(h.peak()).toBe(2);
    await h.loop.stop();
  });

  it('picks up a job at once when woken, without waiting for the next poll', async () => {
    const h = harness({ concurrency: 1 });
    h.loop.start();
    await until(() => h.recovered() === 1);
    h.add(1);
    h.loop.wake();
    await until(() => h.active() === 1, 1000);
    h.releaseAll();
    await h.loop.stop();
  });

  it('on stop, aborts running jobs with WorkerStopping, waits for them and claims nothing more', async () => {
    const h = harness({ concurrency: 1, honourAbort: true });
    h.add(2);
    h.loop.start();
    await until(() => h.active() === 1);
    await h.loop.stop();
    expect(h.aborted).toHaveLength(1);
    expect(h.aborted[0]).toBeInstanceOf(WorkerStopping);
    expect(h.active()).toBe(0);
    h.loop.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(h.queue).toHaveLength(1);
  });

  it('waits at most stopWaitMs for a job that ignores the stop', async () => {
    const h = harness({ concurrency: 1, stopWaitMs: 50 });
    h.add(1);
    h.loop.start();
    await until(() => h.active() === 1);
    const started = Date.now();
    await h.loop.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(h.active()).toBe(1);
    h.releaseAll();
  });
});
