import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../jobs/index.ts';
import { DAY_MS, HOUR_MS, type Schedule } from '../../jobs/scheduler.ts';
import { purgeFiles, sweepLooseAttachments } from './commission.files.ts';
import { MAIL_ATTEMPTS, sendNotice } from './commission.notices.ts';
import { ACCEPT_JOB, MAIL_JOB, NOTIFY_JOB, PURGE_JOB, SWEEP_JOB } from './commission.runtime.ts';
import { acceptPaid, notifyDone } from './commission.service.ts';

/** A paid commission's order -> processing (its own transaction, after the payment's). */
export const commissionAcceptJob = defineJob({
  name: ACCEPT_JOB,
  payloadSchema: z.object({ orderId: z.string().min(1) }),
  handler: async (ctx) => acceptPaid(ctx.services.commission, ctx.payload.orderId),
});

/** The done notice by SMS, once (notified_at is claimed before sending). */
export const commissionNotifyJob = defineJob({
  name: NOTIFY_JOB,
  maxAttempts: 3,
  payloadSchema: z.object({ commissionId: z.string().min(1) }),
  handler: async (ctx) => notifyDone(ctx.services.commission, ctx.payload.commissionId),
});

/** An e-mail notice (quoted / done), once; retried while the mail server refuses or is down. */
export const commissionMailJob = defineJob({
  name: MAIL_JOB,
  maxAttempts: MAIL_ATTEMPTS,
  payloadSchema: z.object({ noticeId: z.uuid() }),
  handler: async (ctx) => ({
    noticeId: ctx.payload.noticeId,
    result: await sendNotice(
      ctx.services.commission,
      ctx.payload.noticeId,
      ctx.job.attempts >= ctx.job.maxAttempts,
    ),
  }),
});

/** An erased account's stored files. */
export const commissionPurgeJob = defineJob({
  name: PURGE_JOB,
  payloadSchema: z.object({ keys: z.array(z.string().min(1)) }),
  handler: async (ctx) => purgeFiles(ctx.services.commission, ctx.payload.keys),
});

/** Attachments never sent with a form (uploaded, then the page was left), a day later. */
export const commissionSweepJob = defineJob({
  name: SWEEP_JOB,
  handler: async (ctx) => ({ deleted: await sweepLooseAttachments(ctx.services.commission) }),
});

/** Daily at 05:00 China time (21:00 UTC). */
export const commissionSchedules: Schedule[] = [
  { name: 'commission-sweep-attachments', jobName: SWEEP_JOB, everyMs: DAY_MS, offsetMs: 21 * HOUR_MS },
];

// biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
export const commissionJobDefinitions: readonly JobDefinition<any, any>[] = [
  commissionAcceptJob,
  commissionNotifyJob,
  commissionMailJob,
  commissionPurgeJob,
  commissionSweepJob,
];
