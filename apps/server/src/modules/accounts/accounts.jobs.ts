import { defineJob } from '../../jobs/job-definition.ts';
import { DAY_MS, HOUR_MS, type Schedule } from '../../jobs/scheduler.ts';
import type { SmsProvider } from '../../providers/sms/index.ts';
import { purgeAccountRows } from './housekeeping.service.ts';
import { runInactivitySweep } from './inactivity.service.ts';

export interface InactivityJobOptions {
  /** Default: the system clock. */
  now?: () => Date;
  /**
   * The notice SMS: provider and template. Default: the accounts service's (sent only with a real
   * SMS provider and ACCOUNT_NOTICE_SMS_TEMPLATE; otherwise the notice is only recorded).
   */
  notice?: { sms: SmsProvider | null; template?: string };
}

/** The daily inactivity sweep (runInactivitySweep); a factory so tests inject clock and SMS. */
export function createInactivityJob(options: InactivityJobOptions = {}) {
  return defineJob({
    name: 'accounts.close-inactive',
    maxAttempts: 3,
    async handler({ db, logger, services }) {
      const { accounts } = services;
      const notice = options.notice ?? accounts.inactivityNotice;
      return runInactivitySweep({
        db,
        now: (options.now ?? (() => new Date()))(),
        sms: notice.sms,
        noticeTemplate: notice.template,
        logger,
        digestKey: accounts.digestKey,
        hooks: accounts.hooks,
      });
    },
  });
}

export function createPurgeAccountRowsJob(options: { now?: () => Date } = {}) {
  return defineJob({
    name: 'accounts.purge-expired',
    maxAttempts: 3,
    async handler({ db, logger }) {
      const deleted = await purgeAccountRows(db, (options.now ?? (() => new Date()))());
      logger.info(deleted, 'purged expired account rows');
      return deleted;
    },
  });
}

export const closeInactiveAccountsJob = createInactivityJob();
export const purgeAccountRowsJob = createPurgeAccountRowsJob();

export const accountsJobDefinitions = [closeInactiveAccountsJob, purgeAccountRowsJob];

export const accountsSchedules: Schedule[] = [
  // Daily at 04:00 China time (20:00 UTC), after the jobs purge at 03:00.
  {
    name: 'close-inactive-accounts',
    jobName: closeInactiveAccountsJob.name,
    everyMs: DAY_MS,
    offsetMs: 20 * HOUR_MS,
  },
  // Daily at 04:30 China time.
  {
    name: 'purge-expired-account-rows',
    jobName: purgeAccountRowsJob.name,
    everyMs: DAY_MS,
    offsetMs: 20 * HOUR_MS + 30 * 60 * 1000,
  },
];
