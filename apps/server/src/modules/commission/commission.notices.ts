import { randomUUID } from 'node:crypto';
import { COMMISSION_REPORT_NAMES, COMMISSION_SERVICE_NAMES, formatYuan } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/index.ts';
import { MailError } from '../../providers/mail/index.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import type { CommissionRow } from './commission.repo.ts';
import { type CommissionRuntime, MAIL_JOB } from './commission.runtime.ts';
import { TEXTS } from './commission.texts.ts';

/**
 * E-mail notices of a commission (docs/api/commission.md § Notices): "your quote is ready to pay",
 * "your report is done" and "your commission was refunded", to the contact e-mail the client gave on the form (decision 0017).
 * The notice row is written in the transaction that makes it due, with its job; the job claims it
 * (pending -> sending) before speaking to the mail server, so a notice is never sent twice: a
 * refused or unreachable server puts it back to pending and the job is retried with the queue's
 * back-off; a process that dies mid-send leaves it `sending`, and it is not sent again.
 */

/** How often a notice is tried while the mail server is down (the queue's back-off between). */
export const MAIL_ATTEMPTS = 8;

export type NoticeKind = 'quoted' | 'done' | 'refunded';

/** The contact e-mail of the form, if the client gave one. */
export function contactEmailOf(row: Pick<CommissionRow, 'form'>): string | null {
  const email = (row.form as { email?: unknown }).email;
  return typeof email === 'string' && email.includes('@') ? email : null;
}

/**
 * Records the notice and queues its job, in the caller's transaction (nothing when the form has no
 * e-mail, or this notice of this order exists already).
 */
export async function queueNotice(
  tx: Kysely<Database>,
  row: Pick<CommissionRow, 'id' | 'form'>,
  kind: NoticeKind,
  orderId: string,
  now: Date,
): Promise<void> {
  const email = contactEmailOf(row);
  if (!email) return;
  const inserted = await tx
    .insertInto('commission_notices')
    .values({
      id: randomUUID(),
      commission_id: row.id,
      kind,
      order_id: orderId,
      email,
      status: 'pending',
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['commission_id', 'kind', 'order_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted)
    await enqueue(
      tx,
      MAIL_JOB,
      { noticeId: inserted.id },
      { dedupeKey: `commission-mail:${inserted.id}`, maxAttempts: MAIL_ATTEMPTS },
    );
}

/** pending -> sending, in its own transaction; undefined when it is not pending (sent, or claimed). */
async function claim(rt: CommissionRuntime, noticeId: string) {
  return rt.db.transaction().execute(async (tx) => {
    const notice = await tx
      .selectFrom('commission_notices')
      .selectAll()
      .where('id', '=', noticeId)
      .forUpdate()
      .executeTakeFirst();
    if (notice?.status !== 'pending') return undefined;
    await tx
      .updateTable('commission_notices')
      .set({ status: 'sending', attempts: notice.attempts + 1 })
      .where('id', '=', noticeId)
      .execute();
    return notice;
  });
}

/**
 * Sends one notice, once. A MailError (refused, unreachable) is recorded and rethrown so the queue
 * retries — on the last attempt (`lastAttempt`) the notice is marked failed instead.
 */
export async function sendNotice(
  rt: CommissionRuntime,
  noticeId: string,
  lastAttempt: boolean,
): Promise<'sent' | 'skipped'> {
  const notice = await claim(rt, noticeId);
  if (!notice) return 'skipped';
  const commission = await rt.db
    .selectFrom('commissions')
    .selectAll()
    .where('id', '=', notice.commission_id)
    .executeTakeFirstOrThrow();
  const order = await rt.orders.getOrder(notice.order_id);
  const stillDue =
    order !== undefined &&
    contactEmailOf(commission) !== null &&
    (notice.kind === 'quoted'
      ? commission.order_id === notice.order_id && order.status === 'pending_payment'
      : commission.status === notice.kind);
  if (!stillDue) {
    // Paid, cancelled or re-quoted before the mail went out, or the account was erased: say nothing.
    await finish(rt, noticeId, { status: 'failed', last_error: 'no longer due' });
    return 'skipped';
  }
  const facts = {
    serviceName: COMMISSION_SERVICE_NAMES[commission.service],
    reportName: COMMISSION_REPORT_NAMES[commission.service],
    title: commission.title,
    commissionNo: commission.commission_no,
    orderNo: order.orderNo,
    amount: formatYuan(formatFenAsYuan(order.amountFen)),
    link: `${rt.publicBaseUrl}${TEXTS.mail.path}`,
  };
  const mail = TEXTS.mail[notice.kind](facts);
  try {
    const sent = await rt.mail.send({ to: notice.email, subject: mail.subject, text: mail.text });
    await finish(rt, noticeId, { status: 'sent', sent_at: rt.now(), message_id: sent.messageId });
    rt.logger.info({ commissionNo: commission.commission_no, kind: notice.kind }, 'commission e-mailed');
    return 'sent';
  } catch (error) {
    const code = error instanceof MailError ? (error.code ?? 'MailError') : 'error';
    await finish(rt, noticeId, { status: lastAttempt ? 'failed' : 'pending', last_error: code });
    throw error;
  }
}

async function finish(
  rt: CommissionRuntime,
  noticeId: string,
  patch: {
    status: 'pending' | 'sent' | 'failed';
    last_error?: string;
    sent_at?: Date;
    message_id?: string;
  },
) {
  await rt.db
    .updateTable('commission_notices')
    .set({ ...patch, last_error: patch.last_error?.slice(0, 200) ?? null })
    .where('id', '=', noticeId)
    .execute();
}

/** The notices of these commissions, oldest first (the console's detail). */
export function noticesOf(db: Kysely<Database>, commissionIds: string[]) {
  if (commissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('commission_notices')
    .select(['commission_id', 'kind', 'email', 'status', 'sent_at', 'created_at'])
    .where('commission_id', 'in', commissionIds)
    .orderBy('created_at')
    .execute();
}
