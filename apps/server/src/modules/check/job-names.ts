/** The check job's name; the job is defined in check.jobs.ts, the run in check-run.ts. */
export const CHECK_JOB = 'check.run';
/** The job removing a deleted account's files (check.jobs.ts). */
export const CHECK_PURGE_JOB = 'check.purge-files';
