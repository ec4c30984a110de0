export {
  type ActiveJobBounds,
  type CreateOutcome,
  createActiveJobSlots,
  isActiveJob,
  refusal,
} from './active-job-slots.ts';
export { createJobLoop, type JobLoop, type JobLoopOptions, WorkerStopping } from './job-loop.ts';
export { expiredLeases, queueBacklog } from './job-queue-reads.ts';
export { isTransientStoreError, retryTransient } from './transient-retry.ts';
