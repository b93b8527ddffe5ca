import { defineRoutesModule } from '../modules/types.ts';
import { defineJob } from './job-definition.ts';
import { purgeFinishedJobs } from './queue.ts';
import { DAY_MS, HOUR_MS, type Schedule } from './scheduler.ts';

/** Finished jobs are kept this long for support questions, then deleted. */
export const FINISHED_JOB_RETENTION_DAYS = 30;

/** Deletes old finished jobs so the table (and its claim indexes) stays small. */
export const purgeFinishedJobsJob = defineJob({
  name: 'jobs.purge-finished',
  maxAttempts: 3,
  async handler({ db, logger }) {
    const deleted = await purgeFinishedJobs(db, FINISHED_JOB_RETENTION_DAYS);
    logger.info({ deleted }, 'purged finished jobs');
    return { deleted };
  },
});

export const housekeepingSchedules: Schedule[] = [
  // Nightly at 03:00 China time (UTC+8), i.e. 19:00 UTC.
  {
    name: 'purge-finished-jobs',
    jobName: purgeFinishedJobsJob.name,
    everyMs: DAY_MS,
    offsetMs: 19 * HOUR_MS,
  },
];

/** The job queue's own upkeep, listed with the feature modules (modules/index.ts). */
export const housekeepingModule = defineRoutesModule({
  name: 'housekeeping',
  jobs: [purgeFinishedJobsJob],
  schedules: housekeepingSchedules,
});
