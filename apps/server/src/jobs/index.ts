// The public API of the job queue for modules. registry.ts is deliberately not re-exported: it
// imports every module's jobs, and those modules import this file (a cycle would leave the
// registry's entries uninitialised). Entry points import the registry directly.
export * from './job-definition.ts';
export { cancelJob, type EnqueueOptions, enqueue, getJob } from './queue.ts';
export { createScheduler, type Schedule, type Scheduler, startScheduler } from './scheduler.ts';
export { createWorker, startWorker, type Worker, type WorkerOptions } from './worker.ts';
