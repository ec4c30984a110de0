// A background task on a timer: never two runs at once, a failure logged and tried again at the
// next tick, and a stop that waits for a run under way (at most waitMs when given).
import { describe, expect, it } from 'vitest';
import { startPeriodic } from '../src/periodic.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('startPeriodic', () => {
  it('runs at once when asked, then on its interval, never two at once, and goes on after a failure', async () => {
    let runs = 0;
    let overlapping = 0;
    let active = 0;
    const failures: unknown[] = [];
    const logger = { warn: (o: { err: unknown }) => failures.push(o.err) } as never;
    const periodic = startPeriodic(
      async () => {
        active++;
        overlapping = Math.max(overlapping, active);
        runs++;
        await sleep(60);
        active--;
        if (runs === 2) throw new Error('store away');
      },
      { everyMs: 20, firstAfterMs: 0, logger, failure: 'purge failed' },
    );
    await sleep(300);
    await periodic.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(overlapping).toBe(1);
    expect(failures).toHaveLength(1);
    const after = runs;
    await sleep(100);
    expect(runs).toBe(after);
  });

  it('waits for a run under way at stop, at most waitMs, and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    let finished = false;
    const periodic = startPeriodic(
      async (signal) => {
        seen = signal;
        await sleep(1000);
        finished = true;
      },
      { everyMs: 10_000, firstAfterMs: 0, failure: 'x' },
    );
    const started = Date.now();
    await periodic.stop(100);
    expect(Date.now() - started).toBeLessThan(600);
    expect(seen?.aborted).toBe(true);
    expect(finished).toBe(false);
  });

  it('first runs after firstAfterMs, or after everyMs when not given', async () => {
    const times: string[] = [];
    const a = startPeriodic(async () => void times.push('a'), {
      everyMs: 10_000,
      firstAfterMs: 30,
      failure: 'x',
    });
    const b = startPeriodic(async () => void times.push('b'), { everyMs: 10_000, failure: 'x' });
    await sleep(150);
    await Promise.all([a.stop(), b.stop()]);
    expect(times).toEqual(['a']);
  });
});
