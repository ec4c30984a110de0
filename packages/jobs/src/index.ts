export { activeJobCount, refuseWhenHouseholdQueueFull } from './household-queue-limit.ts';
export { createJobLoop, type JobLoop, type JobLoopOptions, WorkerStopping } from './job-loop.ts';
export { activeJobCountOfUser, refuseWhenUserQueueFull } from './user-queue-limit.ts';
