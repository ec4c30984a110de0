import { createStore, type Store } from '@hs/store';
import { createMemoryBlobStorage } from '@hs/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TryOnBackend } from '../src/adapters/backends/index.ts';
import { createJobRepository } from '../src/adapters/job-repository.ts';
import type { Image } from '../src/domain/image-format.ts';
import { newJob, type StoredVtoJob } from '../src/domain/vto-job-machine.ts';
import { buildTestApp, garmentKey, HH, makePng, personKey } from './helpers.ts';

const refs = { personImageRef: `local://${personKey()}`, garmentImageRef: `local://${garmentKey()}` };

/** A backend that holds every render until released, counting how many run at once. */
function gatedBackend() {
  let active = 0;
  let peak = 0;
  const waiting: Array<() => void> = [];
  const backend: TryOnBackend = {
    name: 'inline',
    needsInputs: false,
    render: (_p: Image, _g: Image, signal: AbortSignal) =>
      new Promise<Uint8Array>((resolve, reject) => {
        active++;
        peak = Math.max(peak, active);
        const done = () => {
          active--;
          resolve(makePng(4, 4));
        };
        waiting.push(done);
        signal.addEventListener('abort', () => {
          active--;
          reject(signal.reason);
        });
      }),
  };
  return {
    backend,
    peak: () => peak,
    waiting: () => waiting.length,
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
  };
}

const until = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the try-on worker', () => {
  let store: Store;
  beforeEach(() => {
    store = createStore({ backend: 'inmemory' });
  });
  afterEach(() => store.close());

  const seed = async (overrides: Partial<StoredVtoJob>) => {
    const job = {
      ...newJob({
        jobId: `vto_seed${Math.random().toString(36).slice(2)}`,
        householdId: HH,
        memberId: 'usr_alice',
        ...refs,
        backend: 'inline',
        now: new Date().toISOString(),
      }),
      ...overrides,
    };
    // Seeded as a create would store it, in its slots (bounds far above what a test seeds).
    await createJobRepository(store).create(job, { household: 99, user: 99 });
    return job.jobId;
  };

  it('runs at most VTO_WORKER_CONCURRENCY jobs at once and finishes them all', async () => {
    const gate = gatedBackend();
    const t = await buildTestApp({ VTO_WORKER_CONCURRENCY: '2' }, { store, backend: gate.backend });
    try {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await t.submit(refs)).json().jobId);
      await until(() => gate.waiting() === 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(gate.peak()).toBe(2);
      while ((await Promise.all(ids.map((id) => t.get(id)))).some((r) => r.json().status !== 'SUCCEEDED')) {
        gate.releaseAll();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(gate.peak()).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('re-queues a RUNNING job left by a crashed worker on start and completes it', async () => {
    const jobId = await seed({
      status: 'RUNNING',
      workerId: 'wrk_dead',
      leaseUntil: Date.now() - 1000,
      attempts: 1,
    });
    const storage = createMemoryBlobStorage();
    await storage.put(personKey(), makePng(20, 30), 'image/png');
    await storage.put(garmentKey(), makePng(10, 10), 'image/png');
    const t = await buildTestApp({ VTO_INFERENCE_BACKEND: 'inline' }, { store, storage });
    try {
      await t.app.ready();
      const job = await t.waitForJob(jobId);
      expect(job).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    } finally {
      await t.close();
    }
  });

  it('abandons a job that keeps being interrupted (FAILED) and leaves live claims alone', async () => {
    const crashing = await seed({
      status: 'RUNNING',
      workerId: 'wrk_dead',
      leaseUntil: Date.now() - 1000,
      attempts: 3,
    });
    const live = await seed({
      status: 'RUNNING',
      workerId: 'wrk_other',
      leaseUntil: Date.now() + 600_000,
      attempts: 1,
    });
    const t = await buildTestApp({}, { store });
    try {
      await t.app.ready();
      const job = await t.waitForJob(crashing);
      expect(job.error).toEqual({
        code: 'INTERNAL_ERROR',
        message: 'The try-on job was interrupted 3 times and was abandoned; submit it again.',
      });
      expect((await t.get(live)).json()).toMatchObject({ status: 'RUNNING', attempts: 1 });
      // The household learns why the try-on never came: one SYSTEM entry, none for the live job.
      // The entry goes out through the audit outbox, after the job is stored as FAILED.
      await vi.waitFor(() =>
        expect(t.auditEntries()).toEqual([
          expect.objectContaining({
            category: 'SYSTEM',
            severity: 'WARNING',
            action: 'JOB_DEAD_LETTERED',
            sourceService: 'vto',
            targetType: 'VTO_JOB',
            targetId: crashing,
            detail: expect.objectContaining({ jobType: 'VTO_JOB', attempts: 3 }),
          }),
        ]),
      );
    } finally {
      await t.close();
    }
  });

  it('hands running jobs back to the queue on a graceful stop', async () => {
    const gate = gatedBackend();
    const t = await buildTestApp({}, { store, backend: gate.backend });
    const jobId = (await t.submit(refs)).json().jobId;
    await until(() => gate.waiting() === 1);
    expect((await t.get(jobId)).json()).toMatchObject({ status: 'RUNNING', attempts: 1 });
    await t.close();
    const stored = await createJobRepository(store).get(HH, jobId);
    // The interrupted attempt is counted (a job that keeps failing through restarts still ends).
    expect(stored).toMatchObject({ status: 'QUEUED', attempts: 1, workerId: null, leaseUntil: 0 });
  });

  it('dead-letters a job whose last attempt is handed back on a graceful stop, once', async () => {
    const gate = gatedBackend();
    const jobId = await seed({ attempts: 2 });
    const t = await buildTestApp({}, { store, backend: gate.backend });
    await t.app.ready();
    await until(() => gate.waiting() === 1);
    await t.close();
    expect(await createJobRepository(store).get(HH, jobId)).toMatchObject({ status: 'FAILED', attempts: 3 });
    expect(t.auditEntries().map((e) => [e.action, e.targetId])).toEqual([['JOB_DEAD_LETTERED', jobId]]);
  });

  it('does not dead-letter a job handed back before its last attempt', async () => {
    const gate = gatedBackend();
    const t = await buildTestApp({}, { store, backend: gate.backend });
    (await t.submit(refs)).json();
    await until(() => gate.waiting() === 1);
    await t.close();
    expect(t.auditEntries()).toEqual([]);
  });
});
