import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition.ts';
import type { Schedule } from '../../jobs/scheduler.ts';
import { INVOICE_MAIL_ATTEMPTS, INVOICE_MAIL_JOB, sendInvoiceMail } from './invoices/invoices.service.ts';
import { expireDueOrders } from './order-lifecycle.service.ts';
import { reconcile } from './payments/reconcile.service.ts';
import { sendRefundNotice } from './payments/refund-notice.ts';
import { executeRefund, ORDERS_REFUND_JOB, REFUND_NOTICE_JOB } from './payments/refunds.service.ts';

/**
 * The orders module's background work. Both recurring jobs are idempotent: a second run (or two
 * workers) can only repeat a platform query or a close, and every state change is conditional.
 */

/** Closes unpaid orders past their payment time at the platforms and marks them expired. */
export const ordersExpireJob = defineJob({
  name: 'orders.expire',
  maxAttempts: 3,
  async handler({ logger, services }) {
    const rt = services.orders.runtime;
    const result = await expireDueOrders(rt);
    if (result.expired || result.paid) logger.info(result, 'orders expired');
    return result;
  },
});

/**
 * Asks the platforms about QR codes still open (a lost notification never loses a payment),
 * retries unfinished refunds and failed onPaid handlers.
 */
export const ordersReconcileJob = defineJob({
  name: 'orders.reconcile',
  maxAttempts: 3,
  async handler({ logger, services }) {
    const rt = services.orders.runtime;
    const summary = await reconcile(rt);
    if (summary.paid || summary.errors || summary.refunds) logger.info(summary, 'orders reconciled');
    return summary;
  },
});

/** Deletes stored files (offline proofs, invoice PDFs) after an account deletion committed. */
export const ordersPurgeFilesJob = defineJob({
  name: 'orders.purge-files',
  maxAttempts: 5,
  payloadSchema: z.object({ keys: z.array(z.string()).max(10_000) }),
  async handler({ payload, services }) {
    const { files } = services.orders.runtime;
    for (const key of payload.keys) await files.remove(key);
    return { removed: payload.keys.length };
  },
});

/**
 * Carries out one recorded refund at its platform, after the transaction that recorded it
 * committed (an automatic refund recorded inside another module's transaction, e.g. an account
 * deletion's). Idempotent by refund number; a platform that is down is retried by the
 * reconciliation, as for every open refund.
 */
export const ordersRefundJob = defineJob({
  name: ORDERS_REFUND_JOB,
  maxAttempts: 3,
  payloadSchema: z.object({ refundId: z.uuid() }),
  async handler({ payload, services }) {
    const rt = services.orders.runtime;
    await executeRefund(rt, payload.refundId);
    return { refundId: payload.refundId };
  },
});

/** E-mails an issued invoice's PDF (queued with its issuance; a mail server that is down is retried). */
export const ordersInvoiceMailJob = defineJob({
  name: INVOICE_MAIL_JOB,
  maxAttempts: INVOICE_MAIL_ATTEMPTS,
  payloadSchema: z.object({ invoiceId: z.uuid() }),
  async handler({ payload, services }) {
    const rt = services.orders.runtime;
    return { invoiceId: payload.invoiceId, result: await sendInvoiceMail(rt, payload.invoiceId) };
  },
});

/** Tells the user of an operator's refund by SMS, once (refund-notice.ts). */
export const ordersRefundNoticeJob = defineJob({
  name: REFUND_NOTICE_JOB,
  maxAttempts: 1,
  payloadSchema: z.object({ refundId: z.uuid() }),
  async handler({ payload, services }) {
    const { runtime, refundSms } = services.orders;
    return {
      refundId: payload.refundId,
      result: await sendRefundNotice(runtime, refundSms, payload.refundId),
    };
  },
});

export const ordersJobDefinitions = [
  ordersExpireJob,
  ordersReconcileJob,
  ordersPurgeFilesJob,
  ordersRefundJob,
  ordersInvoiceMailJob,
  ordersRefundNoticeJob,
];

const MINUTE_MS = 60_000;

export const ordersSchedules: Schedule[] = [
  { name: 'orders-expire', jobName: ordersExpireJob.name, everyMs: MINUTE_MS },
  // Half a minute after the expiry run, so the two do not query the same QR codes at once.
  { name: 'orders-reconcile', jobName: ordersReconcileJob.name, everyMs: MINUTE_MS, offsetMs: 30_000 },
];
