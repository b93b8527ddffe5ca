import { loadConfig } from '../../config.ts';
import { defineJob } from '../../jobs/job-definition.ts';
import { DAY_MS, HOUR_MS, type Schedule } from '../../jobs/scheduler.ts';
import { createSmsProvider, type SmsProvider } from '../../providers/sms/index.ts';
import { sandboxStateDir } from './accounts.module.ts';
import { digestKeyFor } from './digest-key.ts';
import { purgeAccountRows } from './housekeeping.service.ts';
import { runInactivitySweep } from './inactivity.service.ts';

export interface InactivityJobOptions {
  /** Default: the system clock. */
  now?: () => Date;
  /**
   * The notice SMS: provider and template. Default: from the environment — sent only with a real
   * SMS provider and ACCOUNT_NOTICE_SMS_TEMPLATE; otherwise the notice is only recorded.
   */
  notice?: { sms: SmsProvider | null; template?: string };
}

/** The notice settings of this process's configuration, built once (jobs get no config). */
let configuredNotice: InactivityJobOptions['notice'] | undefined;
function noticeFromConfig(): NonNullable<InactivityJobOptions['notice']> {
  if (!configuredNotice) {
    const config = loadConfig();
    const template = config.accounts.noticeSmsTemplate;
    const isReal = config.sms.SMS_PROVIDER !== 'sandbox';
    configuredNotice =
      isReal && template
        ? {
            sms: createSmsProvider(config.sms, { stateDir: sandboxStateDir(config.dataDir) }).provider,
            template,
          }
        : { sms: null };
  }
  return configuredNotice;
}

/** The daily inactivity sweep (runInactivitySweep); a factory so tests inject clock and SMS. */
export function createInactivityJob(options: InactivityJobOptions = {}) {
  return defineJob({
    name: 'accounts.close-inactive',
    maxAttempts: 3,
    async handler({ db, logger }) {
      const notice = options.notice ?? noticeFromConfig();
      return runInactivitySweep({
        db,
        now: (options.now ?? (() => new Date()))(),
        sms: notice.sms,
        noticeTemplate: notice.template,
        logger,
        digestKey: digestKeyFor(db),
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
