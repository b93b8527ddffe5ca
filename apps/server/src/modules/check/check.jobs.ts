import { z } from 'zod';
import { cancelJob } from '../../jobs/index.ts';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import type { Schedule } from '../../jobs/scheduler.ts';
import { type PaidHandler, type RefundHandler, serviceUndeliverable } from '../orders/index.ts';
import { listDoneChecksWithOpenOrders, lockCheck, markStopped } from './check.repo.ts';
import { TEXTS } from './check.texts.ts';
import { completeOrderOfCheck, purgeFiles, runCheck } from './check-run.ts';
import { CHECK_JOB, CHECK_PURGE_JOB } from './job-names.ts';
import { payloadSchema } from './run-context.ts';
import { queuePaidCheck } from './start.service.ts';

/** The check module's jobs (the run itself: check-run.ts), its schedule and its onPaid / onRefunded handlers. */

const purgeSchema = z.object({
  keys: z.array(z.string().max(300)).max(100_000),
  libraryIds: z.array(z.string().max(300)).max(100_000),
});

/** Removes the files and library documents of a deleted account (queued by its deletion). */
export const checkPurgeFilesJob = defineJob({
  name: CHECK_PURGE_JOB,
  maxAttempts: 5,
  payloadSchema: purgeSchema,
  async handler(ctx) {
    const rt = ctx.services.check;
    await purgeFiles(rt, ctx.payload.keys, ctx.payload.libraryIds);
    return { files: ctx.payload.keys.length, libraryDocuments: ctx.payload.libraryIds.length };
  },
});

export const checkRunJob = defineJob({
  name: CHECK_JOB,
  maxAttempts: 3,
  payloadSchema: payloadSchema,
  backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 60_000),
  async handler(ctx) {
    const rt = ctx.services.check;
    return runCheck(rt, ctx);
  },
});

/**
 * Every few minutes: orders of delivered checks still paid or processing (their check job's last
 * attempt could not finish the order) are marked done.
 */
export const checkReconcileOrdersJob = defineJob({
  name: 'check.reconcile-orders',
  maxAttempts: 1,
  async handler(ctx) {
    const rt = ctx.services.check;
    const stuck = await listDoneChecksWithOpenOrders(rt.db, 200);
    for (const check of stuck) await completeOrderOfCheck(rt, check);
    if (stuck.length > 0) ctx.logger.warn({ orders: stuck.length }, 'orders of delivered checks completed');
    return { completed: stuck.length };
  },
});

export const checkSchedules: Schedule[] = [
  {
    name: 'check-reconcile-orders',
    jobName: checkReconcileOrdersJob.name,
    everyMs: 5 * 60_000,
    offsetMs: 45_000,
  },
];

// biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
export const checkJobDefinitions: readonly JobDefinition<any, any>[] = [
  checkRunJob,
  checkPurgeFilesJob,
  checkReconcileOrdersJob,
];

/**
 * The onPaid('check') handler (check.module.ts hooks): a paid check order queues its check in the
 * payment's transaction (dedupe key: one job per check). A check deleted before the payment was
 * accepted is not run: the orders module refunds the payment.
 */
export const checkPaidHandler: PaidHandler = async ({ tx, order }) => {
  const queued = await queuePaidCheck(tx, order.orderId, order.serviceRef, new Date());
  if (queued === 'deleted') return serviceUndeliverable(TEXTS.refundDeletedCheck, TEXTS.deletedCheckStatus);
};

/**
 * The onRefunded('check') handler (decision 0034): an operator refunded everything left of a paid
 * check's order, inside the refund's transaction (the order locked first, then the check: the lock
 * order of modules/orders/README.md). A check that has not delivered its report ends: failed with
 * 订单已全额退款，检测已终止 (its status reads 已退款), its job cancelled — a queued one leaves the
 * queue, a running one stops at its next step and what it wrote is discarded (check-run.ts). A
 * delivered check stays delivered; its order reads 已退款.
 */
export const checkRefundedHandler: RefundHandler = async ({ tx, order }) => {
  if (!order.serviceRef) return;
  const current = await lockCheck(tx, order.serviceRef);
  if (!current || current.orderId !== order.orderId) return;
  if (current.status !== 'pending' && current.status !== 'queued' && current.status !== 'running') return;
  if (await markStopped(tx, current.id, TEXTS.stoppedRefunded, new Date())) {
    if (current.jobId) await cancelJob(tx, current.jobId);
  }
};
