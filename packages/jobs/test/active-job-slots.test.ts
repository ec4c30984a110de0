// The places behind the try-on and cart-prep bounds, held under job ids so that every step is
// safe to repeat: what a store timeout, a retry of the same job or a transaction run again after
// it landed used to cost a family (a refusal below the bound for a minute or more).
import {
  ABORT,
  type Collection,
  type CollectionOptions,
  createStore,
  type Doc,
  type Store,
  StoreUnavailableError,
} from '@hs/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActiveJobSlots } from '../src/active-job-slots.ts';

type Job = { jobId: string; householdId: string; status: string; starterId: string | null };

afterEach(() => {
  vi.restoreAllMocks();
});

function setup(store: Store = createStore({ backend: 'inmemory' }), view = (c: Collection<Job>) => c) {
  const jobs = view(store.collection<Job>('jobs'));
  const slots = createActiveJobSlots<Job>(store, jobs, {
    household: 'household_places',
    starter: 'starter_places',
    starterField: 'starterId',
  });
  const job = (jobId: string, householdId = 'h_1', starterId: string | null = 'u_1'): Job => ({
    jobId,
    householdId,
    status: 'QUEUED',
    starterId,
  });
  const create = (j: Job, household = 1, user = 5) =>
    slots.create(j, { household, user }, () => jobs.create(j.jobId, j));
  /** A job's change as the repositories make it: its places freed when it stops being active. */
  const finish = (jobId: string) =>
    slots.change(jobId, (current) =>
      current && current.status !== 'SUCCEEDED' ? { ...current, status: 'SUCCEEDED' } : null,
    );
  return { store, jobs, slots, job, create, finish };
}

describe('active job places', () => {
  it('a retry of a job whose insert timed out (outcome unknown) is created, not refused', async () => {
    const { slots, jobs, job, create } = setup();
    const j = job('job_a');
    const timedOut = new StoreUnavailableError('FIRESTORE_TIMEOUT', 'Storage did not answer', {
      outcomeUnknown: true,
    });
    await expect(slots.create(j, { household: 1, user: 1 }, () => Promise.reject(timedOut))).rejects.toBe(
      timedOut,
    );
    // Its places are kept (the write may still land), under its id: the retry finds them.
    expect(await create(j)).toBe('created');
    expect(await jobs.get('job_a')).toMatchObject({ status: 'QUEUED' });
    expect(await create(job('job_b'))).toBe('household-full');
  });

  it('two attempts of one job at once at the bound: one creates, the other finds the job (no refusal)', async () => {
    const { create, job } = setup();
    const results = await Promise.allSettled([create(job('job_k')), create(job('job_k'))]);
    expect(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).name)).sort(),
    ).toEqual(['StoreConflictError', 'created']);
  });

  it('a change the store ran again after it landed still frees the places', async () => {
    // As Firestore may: the first run lands, its answer is lost, the transaction runs again and
    // finds the job already finished (so it changes nothing).
    const ranAgain = (c: Collection<Job>) =>
      new Proxy(c, {
        get(target, prop) {
          if (prop === 'update')
            return async (id: string, apply: (current: Job | null) => Job | typeof ABORT) => {
              const landed = apply(await target.get(id));
              if (landed !== ABORT) await target.update(id, () => landed);
              return target.update(id, apply);
            };
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const { create, finish, job } = setup(undefined, ranAgain);
    expect(await create(job('job_1'))).toBe('created');
    expect(await finish('job_1')).toBeNull();
    expect(await create(job('job_2'))).toBe('created');
  });

  it('a finished job frees its places once, however many times it is settled', async () => {
    const { create, finish, job } = setup();
    expect(await create(job('job_1'), 2)).toBe('created');
    expect(await create(job('job_2'), 2)).toBe('created');
    await finish('job_1');
    await finish('job_1');
    expect(await create(job('job_3'), 2)).toBe('created');
    expect(await create(job('job_4'), 2)).toBe('household-full');
  });

  it('a starter bound refused, or its store failing, gives the household place back', async () => {
    const inner = createStore({ backend: 'inmemory' });
    let failStarter = false;
    const store: Store = {
      backend: inner.backend,
      ping: () => inner.ping(),
      close: () => inner.close(),
      collection<T extends Doc>(name: string, options?: CollectionOptions) {
        const collection = inner.collection<T>(name, options);
        if (name !== 'starter_places') return collection;
        return new Proxy(collection, {
          get: (target, prop, receiver) =>
            prop === 'update' && failStarter
              ? () =>
                  Promise.reject(
                    new StoreUnavailableError('FIRESTORE_TIMEOUT', 'x', { outcomeUnknown: true }),
                  )
              : Reflect.get(target, prop, receiver),
        }) as typeof collection;
      },
    };
    const { create, job } = setup(store);
    expect(await create(job('job_1', 'h_1', 'u_1'), 5, 1)).toBe('created');
    expect(await create(job('job_2', 'h_2', 'u_1'), 1, 1)).toBe('user-full');
    failStarter = true;
    await expect(create(job('job_3', 'h_2', 'u_2'), 1, 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    failStarter = false;
    // h_2 holds nothing: both refusals gave its one place back.
    expect(await create(job('job_4', 'h_2', 'u_3'), 1, 1)).toBe('created');
  });

  it('jobs already active when a household is first counted hold their places', async () => {
    const { jobs, create, job } = setup();
    await jobs.create('old_1', job('old_1'));
    expect(await create(job('job_1'), 1)).toBe('household-full');
  });

  it('a create that meets a finished job of the same id, or another household’s, frees what it took', async () => {
    const { create, finish, job } = setup();
    expect(await create(job('job_x', 'h_1', 'u_1'))).toBe('created');
    await expect(create(job('job_x', 'h_2', 'u_2'))).rejects.toThrow(/already exists/);
    await finish('job_x');
    await expect(create(job('job_x', 'h_1', 'u_1'))).rejects.toThrow(/already exists/);
    // Neither household, nor either starter, keeps a place for a job that will never settle again.
    expect(await create(job('job_1', 'h_1', 'u_1'), 1, 1)).toBe('created');
    expect(await create(job('job_2', 'h_2', 'u_2'), 1, 1)).toBe('created');
  });

  it('a recount never frees the place of a job still active, even one its queries missed', async () => {
    // The queries miss every job, as two status queries can miss one moving between them.
    const { create, job } = setup(
      createStore({ backend: 'inmemory' }),
      (c) =>
        new Proxy(c, {
          get: (target, prop, receiver) =>
            prop === 'query'
              ? async () => ({ items: [], nextCursor: null })
              : Reflect.get(target, prop, receiver),
        }),
    );
    expect(await create(job('job_1'), 1)).toBe('created');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    expect(await create(job('job_2'), 1)).toBe('household-full');
  });
});
