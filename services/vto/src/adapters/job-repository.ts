import type { VtoJobListQuery } from '@hs/contracts';
import {
  type ActiveJobBounds,
  type CreateOutcome,
  createActiveJobSlots,
  expiredLeases,
  queueBacklog,
} from '@hs/jobs';
import { badRequest, outgoingTraceparent } from '@hs/service-kit';
import { type CollectionOptions, type Store, StoreQueryError, type Where } from '@hs/store';
import type { StoredVtoJob } from '../domain/vto-job-machine.ts';

/**
 * `list` (optionally by status, newest first), `queued` and `abandoned` (leaseUntil range);
 * the bounds (@hs/jobs active-job-slots): a user's active jobs, by status.
 */
export const VTO_JOB_COLLECTIONS = {
  vto_jobs: {
    indexes: [
      { fields: ['householdId', 'createdAt'] },
      { fields: ['householdId', 'status', 'createdAt'] },
      { fields: ['status', 'createdAt'] },
      { fields: ['status', 'leaseUntil'] },
      { fields: ['requesterId', 'status'] },
    ],
  },
} satisfies Record<string, CollectionOptions>;

/** Queued jobs in backoff that `queued` reads past to find ones due now. */
const BACKOFF_LOOKAHEAD = 50;

/**
 * Try-on jobs in the store (collection `vto_jobs`), with the active jobs (queued or running) of
 * each household and of each requester holding a place under their job id (@hs/jobs
 * active-job-slots): a create takes one place of each atomically, so a burst cannot pass either
 * bound, and a job gives both back when it stops being active (SUCCEEDED or FAILED, by whatever path: every change goes
 * through `transition`).
 */
export function createJobRepository(store: Store) {
  const jobs = store.collection<StoredVtoJob>('vto_jobs', VTO_JOB_COLLECTIONS.vto_jobs);
  const slots = createActiveJobSlots<StoredVtoJob>(store, jobs, {
    household: 'vto_household_job_places',
    starter: 'vto_requester_job_places',
    starterField: 'requesterId',
  });
  const insert = (job: StoredVtoJob) =>
    jobs.create(job.jobId, { ...job, traceparent: job.traceparent ?? outgoingTraceparent() ?? null });

  return {
    /**
     * Stored with the submitting request's trace, which the job's run continues, in a slot of its
     * household's (`bounds.household`) and one of its requester's (`bounds.user`), taken
     * atomically; when either is full nothing is stored. A create that fails gives its slots
     * back (unless its outcome is unknown): a StoreConflictError (the same id saved first) too.
     */
    create: (job: StoredVtoJob, bounds: ActiveJobBounds): Promise<CreateOutcome> =>
      slots.create(job, bounds, () => insert(job)),

    /** Null for a missing job and for another household's: both are 404 to the caller. */
    async get(householdId: string, jobId: string): Promise<StoredVtoJob | null> {
      const job = await jobs.get(jobId);
      return job && job.householdId === householdId ? job : null;
    },

    async list(householdId: string, query: VtoJobListQuery) {
      const where: Where[] = [['householdId', '==', householdId]];
      if (query.status) where.push(['status', '==', query.status]);
      try {
        return await jobs.query({
          where,
          orderBy: [{ field: 'createdAt', direction: 'desc' }],
          limit: query.limit,
          cursor: query.cursor ?? null,
        });
      } catch (err) {
        if (err instanceof StoreQueryError) throw badRequest('cursor is not valid for this list');
        throw err;
      }
    },

    /**
     * Applies a pure transition atomically; null from it leaves the job unchanged. A job that
     * stops being active here (succeeded, failed, timed out, abandoned) gives its places back.
     */
    transition: (jobId: string, change: (job: StoredVtoJob | null) => StoredVtoJob | null) =>
      slots.change(jobId, change),

    backlog: () => queueBacklog(jobs),
    /**
     * Oldest queued jobs first, so nobody waits behind newer ones; jobs waiting out a backoff
     * (notBefore) are passed over, and up to BACKOFF_LOOKAHEAD of them are read past so that
     * newer jobs behind them still run.
     */
    async queued(limit: number): Promise<StoredVtoJob[]> {
      const now = Date.now();
      const page = await jobs.query({
        where: [['status', '==', 'QUEUED']],
        orderBy: [{ field: 'createdAt', direction: 'asc' }],
        limit: limit + BACKOFF_LOOKAHEAD,
      });
      return page.items.filter((job) => (job.notBefore ?? 0) <= now).slice(0, limit);
    },

    /** RUNNING jobs whose worker's lease ran out (crashed or killed). */
    abandoned: (now: number, limit = 50) => expiredLeases(jobs, now, limit),
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
