import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/queue.ts';
import { type AccountDeletionContext, type AccountHooks, DELETION_RANK } from '../accounts/index.ts';
import { ordersPurgeFilesJob } from './orders.jobs.ts';
import { lockUserOrders, toOrder } from './orders.repo.ts';
import { TEXTS } from './orders.texts.ts';
import { toOrderView } from './orders.view.ts';

/**
 * Account deletion (and inactivity closing) for the orders module, inside the accounts module's
 * transaction. Money records stay, as the law requires, but no longer identify anyone:
 * - addresses are deleted; courier deliveries keep only the region (recipient, phone, street cleared);
 * - invoices lose title, taxpayer ID and e-mail; issued PDFs (the red invoices' of a 红冲 too) and offline proofs are deleted from
 *   disk by a job enqueued in the same transaction (so files go only if the deletion commits);
 * - payments lose the platforms' raw answers (payer ids); orders lose their service meta and are
 *   hidden; pending orders are cancelled (the reconciliation job closes their QR codes, and a
 *   payment that still arrives is refunded automatically).
 *
 * It runs before the services' hooks (DELETION_RANK.orders) and first locks all the account's
 * orders: a payment being accepted holds its order's lock before it locks the service's record
 * (the check), so the deletion must take the orders before the records too (README, "Lock order").
 * A payment that came first is then seen whole by the services' hooks (its check already queued);
 * one that comes later finds its order cancelled and is refunded as a late payment.
 */
async function deidentifyOrders(
  tx: Kysely<Database>,
  userId: string,
  { status }: Pick<AccountDeletionContext, 'status'>,
): Promise<void> {
  const now = new Date();
  await lockUserOrders(tx, userId);
  const orderIds = tx.selectFrom('orders').select('id').where('user_id', '=', userId);

  const pending = await tx
    .updateTable('orders')
    .set({ status: 'cancelled', updated_at: now })
    .where('user_id', '=', userId)
    .where('status', '=', 'pending_payment')
    .returning('id')
    .execute();
  if (pending.length > 0) {
    await tx
      .insertInto('order_transitions')
      .values(
        pending.map((o) => ({
          order_id: o.id,
          from_status: 'pending_payment' as const,
          to_status: 'cancelled' as const,
          actor: 'system' as const,
          reason:
            status === 'deleted'
              ? `${TEXTS.transition.cancelledByUser}（账号注销）`
              : '账号因长期未登录已关闭，订单已取消',
          created_at: now,
        })),
      )
      .execute();
  }

  const invoiceFiles = await tx
    .selectFrom('invoices')
    .select(['pdf_file_key', 'reversal_pdf_file_key'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('pdf_file_key', 'is not', null), eb('reversal_pdf_file_key', 'is not', null)]))
    .execute();
  const proofFiles = await tx
    .selectFrom('offline_proofs')
    .select('file_key')
    .where('user_id', '=', userId)
    .where('file_key', 'is not', null)
    .execute();
  const keys = [
    ...invoiceFiles.flatMap((r) => [r.pdf_file_key, r.reversal_pdf_file_key].filter((k) => k !== null)),
    ...proofFiles.map((r) => r.file_key!),
  ];

  await tx.deleteFrom('addresses').where('user_id', '=', userId).execute();
  await tx
    .updateTable('order_deliveries')
    .set({ recipient_name: '', phone: '', detail: '', deidentified_at: now, updated_at: now })
    .where('order_id', 'in', orderIds)
    .execute();
  await tx
    .updateTable('invoices')
    .set({
      title: '（已注销用户）',
      taxpayer_id: null,
      email: null,
      pdf_file_key: null,
      reversal_pdf_file_key: null,
      deidentified_at: now,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .execute();
  await tx.updateTable('offline_proofs').set({ file_key: null }).where('user_id', '=', userId).execute();
  await tx.updateTable('payments').set({ raw: '{}' }).where('order_id', 'in', orderIds).execute();
  await tx
    .updateTable('orders')
    .set({ meta: '{}', deleted_by_user: true, deleted_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('deleted_by_user', '=', false)
    .execute();
  await tx.updateTable('orders').set({ meta: '{}' }).where('user_id', '=', userId).execute();
  if (keys.length > 0) await enqueue(tx, ordersPurgeFilesJob, { keys });
}

/** "Export my data": orders, payments, offline payment proofs, invoices (without PDFs), addresses. */
async function exportOrders(db: Kysely<Database>, userId: string) {
  const now = new Date();
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const ids = orders.map((o) => o.id);
  const payments = ids.length
    ? await db
        .selectFrom('payments')
        .select(['order_id', 'channel', 'amount_fen', 'paid_at', 'status', 'refunded_fen'])
        .where('order_id', 'in', ids)
        .execute()
    : [];
  const invoices = await db
    .selectFrom('invoices')
    .select([
      'invoice_no',
      'title_type',
      'title',
      'taxpayer_id',
      'email',
      'amount_fen',
      'status',
      'created_at',
    ])
    .where('user_id', '=', userId)
    .execute();
  const addresses = await db
    .selectFrom('addresses')
    .select(['name', 'phone', 'province', 'city', 'district', 'detail', 'is_default'])
    .where('user_id', '=', userId)
    .execute();
  const proofs = await db
    .selectFrom('offline_proofs')
    .select(['order_id', 'mime_type', 'size_bytes', 'status', 'review_note', 'created_at', 'reviewed_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const byId = new Map(orders.map((o) => [o.id, o.order_no]));
  return {
    orders: orders.map((o) => {
      const {
        orderId: _id,
        canPay: _p,
        canCancel: _c,
        canDelete: _d,
        ...view
      } = toOrderView(toOrder(o), now);
      return view;
    }),
    payments: payments.map((p) => ({
      orderNo: byId.get(p.order_id),
      channel: p.channel,
      amountFen: p.amount_fen,
      paidAt: p.paid_at.toISOString(),
      status: p.status,
      refundedFen: p.refunded_fen,
    })),
    invoices: invoices.map((i) => ({
      invoiceNo: i.invoice_no,
      titleType: i.title_type,
      title: i.title,
      taxpayerId: i.taxpayer_id,
      email: i.email,
      amountFen: i.amount_fen,
      status: i.status,
      createdAt: i.created_at.toISOString(),
    })),
    offlineProofs: proofs.map((p) => ({
      orderNo: byId.get(p.order_id),
      mimeType: p.mime_type,
      bytes: p.size_bytes,
      status: p.status,
      reviewNote: p.review_note,
      submittedAt: p.created_at.toISOString(),
      reviewedAt: p.reviewed_at?.toISOString() ?? null,
    })),
    addresses: addresses.map((a) => ({
      name: a.name,
      phone: a.phone,
      province: a.province,
      city: a.city,
      district: a.district,
      detail: a.detail,
      isDefault: a.is_default,
    })),
  };
}

/** Bytes of the offline payment proofs the account uploaded and we keep (the upload quota). */
async function proofBytes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('offline_proofs')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('bytes'))
    .where('user_id', '=', userId)
    .where('file_key', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** Registers the orders module's part of account deletion, export and storage (orders.module.ts hooks). */
export function registerOrdersAccountHooks(hooks: AccountHooks): void {
  hooks.onDeletion('orders', deidentifyOrders, { rank: DELETION_RANK.orders });
  hooks.addExportSection('orders', exportOrders);
  hooks.addStorageUse('orders', proofBytes);
}
