export { createJobLoop, type JobLoop, type JobLoopOptions, WorkerStopping } from './job-loop.ts';
