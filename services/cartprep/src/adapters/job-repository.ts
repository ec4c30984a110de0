import { activeJobCount, activeJobCountOfUser } from '@hs/jobs';
import { outgoingTraceparent } from '@hs/service-kit';
import type { CollectionOptions, Store } from '@hs/store';
import { ABORT } from '@hs/store';
import type { StoredJob } from '../domain/job-machine.ts';

/**
 * `queued`, `leaseExpired` and `callbackPending`: one equality, ordered by the second field;
 * `activeFor`: a household's jobs in one status; `activeOfActor`: a user's jobs in one status.
 */
export const CARTPREP_JOB_COLLECTIONS = {
  cartprep_jobs: {
    indexes: [
      { fields: ['status', 'createdAt'] },
      { fields: ['householdId', 'status', 'createdAt'] },
      { fields: ['actorId', 'status'] },
      { fields: ['status', 'leaseUntil'] },
      { fields: ['callbackPending', 'updatedAt'] },
    ],
  },
} satisfies Record<string, CollectionOptions>;

/** Cart-prep jobs in the service's store; every state change is one atomic update. */
export function createJobRepository(store: Store) {
  const jobs = store.collection<StoredJob>('cartprep_jobs', CARTPREP_JOB_COLLECTIONS.cartprep_jobs);
  return {
    get: (jobId: string) => jobs.get(jobId),
    /** Stored with the submitting request's trace, which the job's run continues. */
    create: (job: StoredJob) =>
      jobs.create(job.jobId, { ...job, traceparent: job.traceparent ?? outgoingTraceparent() ?? null }),
    /** Applies a pure change; null from `apply` leaves the job untouched. */
    async change(jobId: string, apply: (j: StoredJob) => StoredJob | null): Promise<StoredJob | null> {
      const result = await jobs.update(jobId, (j) => (j ? (apply(j) ?? ABORT) : ABORT));
      return result.changed ? result.doc : null;
    },
    /** The household's jobs not finished yet (queued or running). */
    activeFor: (householdId: string) => activeJobCount(jobs, householdId),
    /** The user's jobs not finished yet, across their households (jobs kept without an actor: none). */
    activeOfActor: (actorId: string) => activeJobCountOfUser(jobs, 'actorId', actorId),
    /** How many jobs wait and since when the oldest waits (for `/metrics`). */
    async backlog(): Promise<{ depth: number; oldestQueuedAt: string | null }> {
      const [depth, oldest] = await Promise.all([
        jobs.count([['status', '==', 'QUEUED']]),
        jobs.query({ where: [['status', '==', 'QUEUED']], orderBy: [{ field: 'createdAt' }], limit: 1 }),
      ]);
      return { depth, oldestQueuedAt: oldest.items[0]?.createdAt ?? null };
    },
    async queued(limit: number): Promise<StoredJob[]> {
      return (
        await jobs.query({ where: [['status', '==', 'QUEUED']], orderBy: [{ field: 'createdAt' }], limit })
      ).items;
    },
    async leaseExpired(nowMs: number): Promise<StoredJob[]> {
      return (
        await jobs.query({
          where: [
            ['status', '==', 'RUNNING'],
            ['leaseUntil', '<=', nowMs],
          ],
          orderBy: [{ field: 'leaseUntil' }],
          limit: 100,
        })
      ).items;
    },
    async callbackPending(): Promise<StoredJob[]> {
      return (
        await jobs.query({
          where: [['callbackPending', '==', true]],
          orderBy: [{ field: 'updatedAt' }],
          limit: 100,
        })
      ).items;
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
