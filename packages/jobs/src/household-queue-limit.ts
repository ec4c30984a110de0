import { type AppError, rateLimited } from '@hs/service-kit';

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
