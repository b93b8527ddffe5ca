export * from './job-definition.ts';
export { cancelJob, type EnqueueOptions, enqueue, getJob } from './queue.ts';
export { jobDefinitions, jobSchedules } from './registry.ts';
export { createScheduler, type Schedule, type Scheduler, startScheduler } from './scheduler.ts';
export { createWorker, startWorker, type Worker, type WorkerOptions } from './worker.ts';
