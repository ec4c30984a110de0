import {
  type ActiveJobBounds,
  type CreateOutcome,
  createActiveJobSlots,
  expiredLeases,
  queueBacklog,
} from '@hs/jobs';
import { outgoingTraceparent } from '@hs/service-kit';
import type { CollectionOptions, Store } from '@hs/store';
import type { StoredJob } from '../domain/job-machine.ts';

/**
 * `queued`, `leaseExpired` and `callbackPending`: one equality, ordered by the second field;
 * the bounds (@hs/jobs active-job-slots): a household's and a user's active jobs, by status.
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

/**
 * Cart-prep jobs in the service's store; every state change is one atomic update. The active
 * jobs (queued or running) of each household and of each actor hold a place under their job id
 * (@hs/jobs active-job-slots): a create takes one place of each atomically, so a burst cannot
 * pass either bound, and a job gives both back when it stops being active (SUCCEEDED or FAILED, by whatever path: every change goes
 * through `change`).
 */
export function createJobRepository(store: Store) {
  const jobs = store.collection<StoredJob>('cartprep_jobs', CARTPREP_JOB_COLLECTIONS.cartprep_jobs);
  const slots = createActiveJobSlots<StoredJob>(store, jobs, {
    household: 'cartprep_household_job_places',
    starter: 'cartprep_actor_job_places',
    starterField: 'actorId',
  });
  const insert = (job: StoredJob) =>
    jobs.create(job.jobId, { ...job, traceparent: job.traceparent ?? outgoingTraceparent() ?? null });

  return {
    get: (jobId: string) => jobs.get(jobId),
    /**
     * Stored with the submitting request's trace, which the job's run continues, in a slot of its
     * household's (`bounds.household`) and one of its actor's (`bounds.user`; a job without an
     * actor takes none), taken atomically; when either is full nothing is stored. A create that
     * fails gives its slots back (unless its outcome is unknown): a StoreConflictError (the same
     * jobId saved first) too.
     */
    create: (job: StoredJob, bounds: ActiveJobBounds): Promise<CreateOutcome> =>
      slots.create(job, bounds, () => insert(job)),
    /**
     * Applies a pure change; null from `apply` leaves the job untouched. A job that stops being
     * active here (succeeded, failed, timed out, out of attempts) gives its places back.
     */
    change: (jobId: string, apply: (j: StoredJob) => StoredJob | null): Promise<StoredJob | null> =>
      slots.change(jobId, (j) => (j ? apply(j) : null)),
    backlog: () => queueBacklog(jobs),
    leaseExpired: (nowMs: number) => expiredLeases(jobs, nowMs, 100),
    async queued(limit: number): Promise<StoredJob[]> {
      return (
        await jobs.query({ where: [['status', '==', 'QUEUED']], orderBy: [{ field: 'createdAt' }], limit })
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
