import { accountsJobDefinitions, accountsSchedules } from '../modules/accounts/accounts.jobs.ts';
import { checkJobDefinitions, checkSchedules } from '../modules/check/check.jobs.ts';
import { ordersJobDefinitions, ordersSchedules } from '../modules/orders/orders.jobs.ts';
import { reductionJobDefinitions } from '../modules/reduction/reduction.jobs.ts';
import { writingJobDefinitions } from '../modules/writing/writing.jobs.ts';
import { housekeepingSchedules, purgeFinishedJobsJob } from './housekeeping.jobs.ts';
import type { JobDefinition } from './job-definition.ts';
import type { Schedule } from './scheduler.ts';

/**
 * Every kind of background job, in one place: the worker loop (in-process or `npm run worker`)
 * claims exactly these names. A module adds its `<domain>.jobs.ts` definitions here.
 */
// biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
export const jobDefinitions: readonly JobDefinition<any, any>[] = [
  purgeFinishedJobsJob,
  ...accountsJobDefinitions,
  ...ordersJobDefinitions,
  ...checkJobDefinitions,
  ...writingJobDefinitions,
  ...reductionJobDefinitions,
];

/** Recurring jobs, enqueued by the scheduler that runs beside every worker loop. */
export const jobSchedules: readonly Schedule[] = [
  ...housekeepingSchedules,
  ...accountsSchedules,
  ...ordersSchedules,
  ...checkSchedules,
];
