// The reads of a job queue that a worker loop and `/metrics` make, alike for every kind of job.
// They need the indexes `status, createdAt` and `status, leaseUntil` on the jobs' collection.
import type { Collection } from '@hs/store';

type QueuedJob = { status: string; createdAt: string; leaseUntil: number };

/** How many jobs wait and since when the oldest waits (for `/metrics`). */
export async function queueBacklog<J extends QueuedJob>(
  jobs: Collection<J>,
): Promise<{ depth: number; oldestQueuedAt: string | null }> {
  const [depth, oldest] = await Promise.all([
    jobs.count([['status', '==', 'QUEUED']]),
    jobs.query({ where: [['status', '==', 'QUEUED']], orderBy: [{ field: 'createdAt' }], limit: 1 }),
  ]);
  return { depth, oldestQueuedAt: oldest.items[0]?.createdAt ?? null };
}

/** RUNNING jobs whose worker's lease ran out by `now` (a worker crashed or was killed), oldest first. */
export async function expiredLeases<J extends QueuedJob>(
  jobs: Collection<J>,
  now: number,
  limit: number,
): Promise<J[]> {
  const page = await jobs.query({
    where: [
      ['status', '==', 'RUNNING'],
      ['leaseUntil', '<=', now],
    ],
    orderBy: [{ field: 'leaseUntil' }],
    limit,
  });
  return page.items;
}
