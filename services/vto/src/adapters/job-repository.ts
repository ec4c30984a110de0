import type { VtoJobListQuery } from '@hs/contracts';
import { activeJobCount, activeJobCountOfUser } from '@hs/jobs';
import { badRequest, outgoingTraceparent } from '@hs/service-kit';
import { ABORT, type CollectionOptions, type Store, StoreQueryError, type Where } from '@hs/store';
import type { StoredVtoJob } from '../domain/vto-job-machine.ts';

/**
 * `list` (optionally by status, newest first), `queued` and `abandoned` (leaseUntil range);
 * `activeOfRequester`: a user's jobs in one status.
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

/** Try-on jobs in the store (collection `vto_jobs`). */
export function createJobRepository(store: Store) {
  const jobs = store.collection<StoredVtoJob>('vto_jobs', VTO_JOB_COLLECTIONS.vto_jobs);

  return {
    /** Stored with the submitting request's trace, which the job's run continues. */
    create: (job: StoredVtoJob) =>
      jobs.create(job.jobId, { ...job, traceparent: job.traceparent ?? outgoingTraceparent() ?? null }),

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

    /** The household's jobs not finished yet (queued or running). */
    activeFor: (householdId: string) => activeJobCount(jobs, householdId),

    /** The jobs a user queued that are not finished yet, across their households. */
    activeOfRequester: (userId: string) => activeJobCountOfUser(jobs, 'requesterId', userId),

    /** Applies a pure transition atomically; null from it leaves the job unchanged. */
    async transition(jobId: string, change: (job: StoredVtoJob | null) => StoredVtoJob | null) {
      const result = await jobs.update(jobId, (current) => change(current) ?? ABORT);
      return result.changed ? result.doc : null;
    },

    /** How many jobs wait and since when the oldest waits (for `/metrics`). */
    async backlog(): Promise<{ depth: number; oldestQueuedAt: string | null }> {
      const [depth, oldest] = await Promise.all([
        jobs.count([['status', '==', 'QUEUED']]),
        jobs.query({ where: [['status', '==', 'QUEUED']], orderBy: [{ field: 'createdAt' }], limit: 1 }),
      ]);
      return { depth, oldestQueuedAt: oldest.items[0]?.createdAt ?? null };
    },
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
    async abandoned(now: number, limit = 50): Promise<StoredVtoJob[]> {
      const page = await jobs.query({
        where: [
          ['status', '==', 'RUNNING'],
          ['leaseUntil', '<', now],
        ],
        orderBy: [{ field: 'leaseUntil', direction: 'asc' }],
        limit,
      });
      return page.items;
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
