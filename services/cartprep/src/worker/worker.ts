import type { Logger } from 'pino';
import type { JobRepository } from '../adapters/job-repository.ts';
import type { JobRunner } from './job-runner.ts';

const RECOVER_EVERY_MS = 5_000;
const STOP_WAIT_MS = 5_000;

/**
 * Picks QUEUED jobs and runs at most CARTPREP_CONCURRENCY at once. On start it first recovers
 * what a previous process left behind (expired leases, undelivered callbacks), then keeps doing
 * so every few seconds. `wake()` lets a new job start without waiting for the next poll.
 */
export function createWorker(deps: {
  jobs: JobRepository;
  runner: JobRunner;
  concurrency: number;
  pollMs: number;
  logger?: Logger | undefined;
}) {
  const inflight = new Set<Promise<unknown>>();
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  let lastRecover = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      ticking = tick();
    }, ms);
  };

  let busy = false;

  async function tick(): Promise<void> {
    // One tick at a time, so the concurrency bound holds; a wake during a tick waits one poll.
    if (busy) return;
    busy = true;
    try {
      if (Date.now() - lastRecover >= RECOVER_EVERY_MS) {
        lastRecover = Date.now();
        await deps.runner.recover();
      }
      const free = deps.concurrency - inflight.size;
      if (free <= 0) return;
      for (const queued of await deps.jobs.queued(free)) {
        if (stopped) return;
        const running = await deps.runner.claim(queued.jobId);
        if (!running) continue;
        const run: Promise<unknown> = deps.runner
          .execute(running)
          .catch((err) => deps.logger?.error({ err, jobId: running.jobId }, 'cart-prep job crashed'))
          .finally(() => {
            inflight.delete(run);
            schedule(0);
          });
        inflight.add(run);
      }
    } catch (err) {
      deps.logger?.warn({ err }, 'cart-prep worker tick failed');
    } finally {
      busy = false;
      schedule(deps.pollMs);
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      lastRecover = 0;
      schedule(0);
    },
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      // Jobs still running after the wait are picked up again through their lease.
      await Promise.race([
        Promise.allSettled([...inflight]),
        new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref()),
      ]);
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;
