import { type AppError, rateLimited } from '@hs/service-kit';

/** What the count needs of a queue's collection (both queues keep `householdId` and `status`). */
export type CountsJobs = { count(where: [string, '==', string][]): Promise<number> };

/**
 * Jobs not finished yet (queued or running) whose `field` is `value`: one count per status, on
 * the collection's index that starts with `field` and `status`.
 */
export async function activeJobCountWhere(jobs: CountsJobs, field: string, value: string): Promise<number> {
  const counts = await Promise.all(
    (['QUEUED', 'RUNNING'] as const).map((status) =>
      jobs.count([
        [field, '==', value],
        ['status', '==', status],
      ]),
    ),
  );
  return counts[0]! + counts[1]!;
}

/** A household's jobs not finished yet: queued or running. */
export const activeJobCount = (jobs: CountsJobs, householdId: string): Promise<number> =>
  activeJobCountWhere(jobs, 'householdId', householdId);

/** Seconds a refused household (or user) is told to wait: about one short job. */
export const RETRY_AFTER_SECONDS = 30;

/**
 * A job queue is shared by every household, first in, first out: a household with many jobs
 * waiting would make every other one wait behind them. So a household may have at most `max`
 * jobs queued or running (taken atomically with the create: active-job-slots.ts); one more is
 * this 429 RATE_LIMITED with Retry-After.
 */
export const householdQueueFull = (max: number, jobs: string): AppError =>
  rateLimited(`This household already has ${max} ${jobs}; try again when one is done`, RETRY_AFTER_SECONDS);
