// The household's bound alone did not bound one person: an account may create many households
// (it is their guardian, so it approves its own purchases) and fill the shared queue with each
// one's share (20 households held 100 cart-prep jobs; another family's cart waited 353 s).
// So the user who starts the work has a bound of their own across all their households.
import { type AppError, rateLimited } from '@hs/service-kit';
import { activeJobCountWhere, type CountsJobs, RETRY_AFTER_SECONDS } from './household-queue-limit.ts';

/**
 * The jobs `userId` started that are not finished yet, whatever their household; `field` names
 * where the job keeps its starter. Jobs stored before the starter was kept have none and do not
 * count.
 */
export const activeJobCountOfUser = (jobs: CountsJobs, field: string, userId: string): Promise<number> =>
  activeJobCountWhere(jobs, field, userId);

/**
 * 429 RATE_LIMITED with Retry-After once the user has `max` jobs queued or running across their
 * households (taken atomically with the create: active-job-slots.ts). Checked after the
 * household's own bound, whose message then wins.
 */
export const userQueueFull = (max: number, jobs: string): AppError =>
  rateLimited(
    `You already have ${max} ${jobs} across your households; try again when one is done`,
    RETRY_AFTER_SECONDS,
  );
