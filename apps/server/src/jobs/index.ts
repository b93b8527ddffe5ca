// The public API of the job queue for modules. Which jobs exist is said by the modules themselves
// (`jobs` and `schedules` of their ServerModule, modules/types.ts); createServices collects them.
export * from './job-definition.ts';
export {
  cancelJob,
  cancelJobByKey,
  type EnqueueOptions,
  enqueue,
  getJob,
  type QueuedView,
  queuedText,
  queuePlace,
  withQueuePlace,
} from './queue.ts';
export { createScheduler, type Schedule, type Scheduler, startScheduler } from './scheduler.ts';
export { createWorker, startWorker, type Worker, type WorkerOptions } from './worker.ts';
