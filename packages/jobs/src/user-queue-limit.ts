// The household's bound alone did not bound one person: an account may create many households
// (it is their guardian, so it approves its own purchases) and fill the shared queue with each
// one's share (20 households held 100 cart-prep jobs; another family's cart waited 353 s).
// So the user who starts the work has a bound of their own across all their households.
import { type AppError, rateLimited } from '@hs/service-kit';
import { RETRY_AFTER_SECONDS } from './household-queue-limit.ts';

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
