import type { Logger } from 'pino';

export interface PeriodicOptions {
  /** Interval between runs. */
  everyMs: number;
  /** The first run: at once (0), after this long, or (undefined) after `everyMs`. */
  firstAfterMs?: number;
  logger?: Logger | undefined;
  /** The log line of a run that failed (the next run tries again). */
  failure: string;
}

/**
 * The schedule of a purge of expired records: hourly, and also a minute after boot, so a process
 * restarted more often than hourly (a crash loop, which is what leaves records behind) still
 * purges. A stop waits HOUSEKEEPING_STOP_WAIT_MS for a purge under way (a Firestore backlog takes
 * longer; what it leaves the next purge takes).
 */
export const HOURLY_HOUSEKEEPING = { everyMs: 3_600_000, firstAfterMs: 60_000 } as const;
export const HOUSEKEEPING_STOP_WAIT_MS = 2000;

/**
 * A background task run on a timer (a purge, a recovery sweep): never two runs at once (a tick
 * while one runs is skipped), a failure logged and tried again at the next tick, the timers
 * unref'd so they never keep a process alive. `stop` clears them and waits for a run under way,
 * at most `waitMs` when given (a Firestore backlog may take minutes; the next run goes on); the
 * task's signal aborts at stop, so a long run can end at its next step.
 */
export function startPeriodic(
  task: (signal: AbortSignal) => Promise<unknown>,
  options: PeriodicOptions,
): { stop(waitMs?: number): Promise<void> } {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  const run = () => {
    if (stopping.signal.aborted || running) return;
    running = task(stopping.signal)
      .then(
        () => undefined,
        (err: unknown) => options.logger?.warn({ err }, options.failure),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, options.everyMs);
  timer.unref();
  let first: NodeJS.Timeout | undefined;
  if (options.firstAfterMs === 0) run();
  else if (options.firstAfterMs !== undefined) {
    first = setTimeout(run, options.firstAfterMs);
    first.unref();
  }
  return {
    async stop(waitMs?: number) {
      stopping.abort();
      clearInterval(timer);
      clearTimeout(first);
      if (!running) return;
      if (waitMs === undefined) return running;
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        running,
        new Promise<void>((resolve) => {
          waited = setTimeout(resolve, waitMs);
          waited.unref();
        }),
      ]);
      clearTimeout(waited);
    },
  };
}
