// The browser executor while its browser session is still opening (a cold start, a frozen
// Chromium): the job's abort ends it there and then, and a session that opens afterwards is
// closed rather than left holding a place in the pool.
import type { BrowserPool, PooledSession } from '@hs/browser';
import { describe, expect, it } from 'vitest';
import { createBrowserExecutor } from '../src/adapters/browser-executor/browser-executor.ts';
import type { StoredJob } from '../src/domain/job-machine.ts';

/** A pool whose `open` answers only when the test says so. */
function slowPool() {
  let answer: (s: PooledSession) => void = () => {};
  const closed: string[] = [];
  const pool = {
    open: () =>
      new Promise<PooledSession>((resolve) => {
        answer = resolve;
      }),
    close: async (id: string) => {
      closed.push(id);
    },
  } as unknown as BrowserPool;
  return { pool, closed, answer: (s: PooledSession) => answer(s) };
}

const job = { jobId: 'cpj_open0001', attempts: 1, url: 'https://shop.example.com/p/x' } as StoredJob;

describe('browser executor opening its session', () => {
  it('answers TIMEOUT when the job is aborted before the browser opens a session, and closes it once it does', async () => {
    const { pool, closed, answer } = slowPool();
    const executor = createBrowserExecutor({
      pool,
      allowHost: () => false,
      saveScreenshot: async () => null,
    });
    const deadline = new AbortController();
    const preparing = executor.prepare(job, deadline.signal);
    setTimeout(() => deadline.abort(), 50);

    const outcome = await Promise.race([
      preparing,
      new Promise((r) => setTimeout(() => r('still waiting on the browser'), 1000)),
    ]);
    expect(outcome).toEqual({
      ok: false,
      errorCode: 'TIMEOUT',
      message: 'Cart preparation passed its deadline',
      evidence: { finalUrl: null, screenshotRef: null, reason: 'Cart preparation passed its deadline' },
    });

    answer({ id: 'cpj_open0001-1' } as PooledSession);
    await expect.poll(() => closed).toEqual(['cpj_open0001-1']);
  });
});
