export {
  type ActiveJobBounds,
  type CreateOutcome,
  createActiveJobSlots,
  isActiveJob,
  refusal,
} from './active-job-slots.ts';
export { activeJobCount } from './household-queue-limit.ts';
export { createJobLoop, type JobLoop, type JobLoopOptions, WorkerStopping } from './job-loop.ts';
export { activeJobCountOfUser } from './user-queue-limit.ts';
