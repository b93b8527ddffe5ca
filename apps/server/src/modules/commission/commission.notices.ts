import { randomUUID } from 'node:crypto';
import {
  COMMISSION_REPORT_NAMES,
  COMMISSION_SERVICE_NAMES,
  ErrorCode,
  formatYuan,
  type StuckNotice,
} from '@kyfw/contracts';
import type { Database, ExpressionBuilder, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { MailError } from '../../providers/mail/index.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import type { CommissionRow } from './commission.repo.ts';
import { type CommissionRuntime, MAIL_JOB } from './commission.runtime.ts';
import { TEXTS } from './commission.texts.ts';

/**
 * E-mail notices of a commission (docs/api/commission.md § Notices): "your quote is ready to pay",
 * "your report is done" and "your commission was refunded", to the contact e-mail the client gave
 * on the form (decision 0017).
 * The notice row is written in the transaction that makes it due, with its job. Sent at least once
 * (issue 22): the job claims the notice (pending -> sending) with a lease of NOTICE_LEASE_MS before
 * speaking to the mail server; a refused or unreachable server puts it back to pending and the job
 * is retried with the queue's back-off; a worker killed mid-send leaves it `sending` until the
 * lease runs out, then the job's retry claims and sends it again. Every send of a notice carries
 * the same Message-ID (noticeMessageId), so a resend of a mail that did leave before the crash is
 * recognisable as the same message. While another claim's lease runs the job fails (and is
 * retried) instead of reporting success. Notices that end `failed`, or `sending` with the lease run
 * out and no retry left, are listed in the console's 任务 screen (stuckNotices) to be sent again.
 */

/** How often a notice is tried while the mail server is down (the queue's back-off between). */
export const MAIL_ATTEMPTS = 8;

/**
 * A claim's lease: longer than one SMTP conversation can take (three timeouts of 20 s), shorter
 * than the queue's back-off over the attempts, so a retry finds a dead worker's lease expired.
 */
export const NOTICE_LEASE_MS = 2 * 60_000;

/** The notice is being sent under another worker's live claim: the job must try again later. */
export class NoticeBusyError extends Error {
  override readonly name = 'NoticeBusyError';
}

/** The Message-ID of every send of a notice: `<commission-notice.<id>@<the site's host>>`. */
export function noticeMessageId(noticeId: string, publicBaseUrl: string): string {
  return `<commission-notice.${noticeId}@${new URL(publicBaseUrl).hostname}>`;
}

export type NoticeKind = 'quoted' | 'done' | 'refunded';

/** last_error of a notice dropped because it was no longer due (not a delivery failure). */
const NO_LONGER_DUE = 'no longer due';

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

/**
 * pending (or sending with its lease run out) -> sending with a new lease, in its own transaction;
 * undefined when it is done (sent, failed).
 * @throws NoticeBusyError while another claim's lease runs
 */
async function claim(rt: CommissionRuntime, noticeId: string) {
  const now = rt.now();
  return rt.db.transaction().execute(async (tx) => {
    const notice = await tx
      .selectFrom('commission_notices')
      .selectAll()
      .where('id', '=', noticeId)
      .forUpdate()
      .executeTakeFirst();
    if (!notice) return undefined;
    const leaseOver = notice.status === 'sending' && (notice.claimed_until?.getTime() ?? 0) <= now.getTime();
    if (notice.status === 'sending' && !leaseOver) {
      throw new NoticeBusyError(`notice ${noticeId} is being sent under another claim`);
    }
    if (notice.status !== 'pending' && !leaseOver) return undefined;
    const messageId = notice.message_id ?? noticeMessageId(noticeId, rt.publicBaseUrl);
    await tx
      .updateTable('commission_notices')
      .set({
        status: 'sending',
        attempts: notice.attempts + 1,
        claimed_until: new Date(now.getTime() + NOTICE_LEASE_MS),
        message_id: messageId,
      })
      .where('id', '=', noticeId)
      .execute();
    return { ...notice, message_id: messageId };
  });
}

/**
 * Sends one notice (at least once; see above). A MailError (refused, unreachable) is recorded and
 * rethrown so the queue retries — on the last attempt (`lastAttempt`) the notice is marked failed
 * instead. @throws NoticeBusyError (retried) while another worker's claim runs
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
    await finish(rt, noticeId, { status: 'failed', last_error: NO_LONGER_DUE });
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
    await rt.mail.send({
      to: notice.email,
      subject: mail.subject,
      text: mail.text,
      messageId: notice.message_id,
    });
    await finish(rt, noticeId, { status: 'sent', sent_at: rt.now() });
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
  },
) {
  await rt.db
    .updateTable('commission_notices')
    .set({ ...patch, claimed_until: null, last_error: patch.last_error?.slice(0, 200) ?? null })
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

/** Where a stuck notice is: `sending` with the lease run out, or `failed` (not merely no longer due). */
function stuckWhere(now: Date) {
  return (eb: ExpressionBuilder<Database, 'commission_notices'>) =>
    eb.or([
      eb.and([
        eb('commission_notices.status', '=', 'sending'),
        eb('commission_notices.claimed_until', '<', now),
      ]),
      eb.and([
        eb('commission_notices.status', '=', 'failed'),
        eb('commission_notices.last_error', 'is distinct from', NO_LONGER_DUE),
      ]),
    ]);
}

/**
 * The notices that did not go out (the console's 任务 screen): `sending` whose lease ran out with
 * no worker to finish it, and `failed` ones (every attempt refused), oldest first. A `sending` one
 * whose job will still retry it shows here until that retry runs.
 */
export async function stuckNotices(db: Kysely<Database>, now: Date): Promise<StuckNotice[]> {
  const rows = await db
    .selectFrom('commission_notices')
    .innerJoin('commissions', 'commissions.id', 'commission_notices.commission_id')
    .select([
      'commission_notices.id',
      'commission_notices.kind',
      'commission_notices.email',
      'commission_notices.status',
      'commission_notices.attempts',
      'commission_notices.last_error',
      'commission_notices.message_id',
      'commission_notices.created_at',
      'commission_notices.claimed_until',
      'commissions.commission_no',
    ])
    .where(stuckWhere(now))
    .orderBy('commission_notices.created_at')
    .limit(200)
    .execute();
  return rows.map((r) => {
    const since = r.status === 'sending' ? (r.claimed_until ?? r.created_at) : r.created_at;
    const status = r.status === 'sending' ? 'sending' : 'failed';
    return {
      noticeId: r.id,
      commissionNo: r.commission_no,
      kindText: TEXTS.mail.kinds[r.kind],
      email: r.email,
      status,
      statusText: TEXTS.mail.statuses[status],
      attempts: r.attempts,
      lastError: r.last_error,
      messageId: r.message_id,
      createdAt: r.created_at.toISOString(),
      stuckMinutes: Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000)),
    };
  });
}

/**
 * Sends a stuck notice again: back to pending with a new job, in one transaction, only while it is
 * still stuck (a worker that took it meanwhile keeps it). It keeps its Message-ID.
 * @throws AppError CONFLICT when it is not (or no longer) stuck
 */
export async function resendNotice(db: Kysely<Database>, noticeId: string, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('commission_notices')
      .set({ status: 'pending', claimed_until: null, last_error: null })
      .where('id', '=', noticeId)
      .where(stuckWhere(now))
      .returning('id')
      .executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.CONFLICT, TEXTS.mail.notStuck);
    await enqueue(
      tx,
      MAIL_JOB,
      { noticeId },
      { dedupeKey: `commission-mail:${noticeId}:${now.getTime()}`, maxAttempts: MAIL_ATTEMPTS },
    );
  });
}
