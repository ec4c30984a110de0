import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VtoJob } from '@hs/contracts';
import { createLocalStorage } from '@hs/storage';
import { createStore, type Store } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TryOnBackend } from '../src/adapters/backends/index.ts';
import { createJobRepository } from '../src/adapters/job-repository.ts';
import { STORAGE_RETRY_BASE_MS } from '../src/jobs/job-worker.ts';
import { buildTestApp, HH, makePng, type TestApp } from './helpers.ts';

// The storage fault is a real one on every uid (root ignores chmod): the directory the result
// goes under is a regular file, so the write fails with ENOTDIR. Removing the file mends it.
// Only Date is faked, so the worker's polling runs on real timers while the test moves the clock
// past a job's backoff instead of waiting for it.

/** Renders without inputs, so only the result write touches the storage. */
const backend: TryOnBackend = { name: 'inline', needsInputs: false, render: async () => makePng(4, 4) };
const refs = {
  personImageRef: `local://households/${HH}/p.png`,
  garmentImageRef: `local://households/${HH}/g.png`,
};

describe('a try-on whose result cannot be saved (storage fault)', () => {
  let dir: string;
  let store: Store;
  let t: TestApp;
  const blockStorage = () => writeFileSync(join(dir, 'households'), 'not a directory');
  const mendStorage = () => {
    rmSync(join(dir, 'households'));
    mkdirSync(join(dir, 'households'));
  };
  const stored = (jobId: string) => createJobRepository(store).get(HH, jobId);
  /** Polls the stored job (real time; Date is frozen) until `check` holds. */
  const until = async (jobId: string, check: (job: VtoJob) => boolean) => {
    for (let i = 0; i < 500; i++) {
      const job = (await t.get(jobId)).json() as VtoJob;
      if (check(job)) return job;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`job ${jobId}: condition not reached`);
  };

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    dir = mkdtempSync(join(tmpdir(), 'hs-vto-storage-'));
    store = createStore({ backend: 'inmemory' });
    const storage = createLocalStorage({
      backend: 'local',
      dir,
      signingSecret: 'test-secret',
      publicBaseUrl: 'http://127.0.0.1:1',
    });
    t = await buildTestApp({}, { store, storage, backend });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('goes back to the queue with a backoff and succeeds once the storage is writable again', async () => {
    blockStorage();
    const jobId = (await t.submit(refs)).json().jobId as string;
    // The first attempt hit the fault: queued again, not failed, and not retried at once.
    await until(jobId, (j) => j.attempts === 1 && j.status === 'QUEUED');
    expect((await t.get(jobId)).json()).toMatchObject({ status: 'QUEUED', attempts: 1, error: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(await stored(jobId)).toMatchObject({ status: 'QUEUED', attempts: 1 });

    mendStorage();
    vi.setSystemTime(Date.now() + STORAGE_RETRY_BASE_MS + 1000);
    const job = await until(jobId, (j) => j.status === 'SUCCEEDED' || j.status === 'FAILED');
    expect(job).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
      error: null,
      resultImageRef: `local://households/${HH}/vto/${jobId}.png`,
    });
    expect(t.auditEntries()).toEqual([]);
  });

  it('ends FAILED INTERNAL_ERROR naming the fault once its attempts are used up, and is audited', async () => {
    blockStorage();
    const jobId = (await t.submit(refs)).json().jobId as string;
    for (let attempt = 1; attempt < 3; attempt++) {
      await until(jobId, (j) => j.attempts === attempt && j.status === 'QUEUED');
      vi.setSystemTime(Date.now() + 10 * STORAGE_RETRY_BASE_MS);
    }
    const job = await until(jobId, (j) => j.status === 'FAILED');
    expect(job.attempts).toBe(3);
    expect(job.error).toEqual({
      code: 'INTERNAL_ERROR',
      message: expect.stringContaining('storage fault: Blob storage directory is not a directory'),
    });
    expect(job.error?.message).toContain('(ENOTDIR)');
    await vi.waitFor(() =>
      expect(t.auditEntries()).toEqual([
        expect.objectContaining({ action: 'JOB_DEAD_LETTERED', targetId: jobId, category: 'SYSTEM' }),
      ]),
    );
  });
});
