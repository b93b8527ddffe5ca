import { randomUUID } from 'node:crypto';
import {
  COMMISSION_FILE_RULES,
  type CommissionFormData,
  type CommissionService,
  ErrorCode,
} from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { OrderView } from '../orders/index.ts';
import { estimate, estimateInputOf, metaOf, titleOf } from './commission.pricing.ts';
import {
  attachFiles,
  filesOf,
  findCommission,
  findLooseAttachments,
  insertCommission,
  listCommissions,
  phonesOf,
  turnaroundDaysOf,
  updateCommission,
} from './commission.repo.ts';

import {
  ACCEPT_JOB,
  type CommissionRuntime,
  chinaToday,
  dueDateOf,
  newCommissionNo,
} from './commission.runtime.ts';
import { TEXTS } from './commission.texts.ts';
import { type CommissionView, ownCommission, viewOf, viewsOf } from './commission.view.ts';

/** The client's side of the commissioned services and what a payment starts. */
// --- the client's side ---------------------------------------------------------------------------

/**
 * The validated form -> a commission, its attachments attached and, when the goods price it, its
 * pending order — in one transaction; nothing is kept when anything is refused.
 */
export async function submit(rt: CommissionRuntime, userId: string, form: CommissionFormData) {
  const now = rt.now();
  const deadline = 'deadline' in form ? form.deadline : null;
  if (deadline !== null && deadline <= chinaToday(now))
    throw new AppError(ErrorCode.VALIDATION, TEXTS.deadlinePast);
  const priced = await estimate(rt, estimateInputOf(form));
  const fileIds = [...new Set(form.fileIds)];
  const title = titleOf(form);
  const row = await rt.db.transaction().execute(async (tx) => {
    const files = await findLooseAttachments(tx, userId, fileIds);
    if (files.length !== fileIds.length)
      throw new AppError(ErrorCode.VALIDATION, COMMISSION_FILE_RULES.unknown);
    const id = randomUUID();
    const order =
      priced.pricing === 'quote'
        ? null
        : await rt.orders.createOrder(
            {
              userId,
              serviceType: form.service,
              goodsId: priced.goodsId,
              quantity: priced.quantity ?? 0,
              serviceRef: id,
              meta: metaOf(id, title, form as unknown as Record<string, unknown>),
            },
            { tx },
          );
    for (let attempt = 0; attempt < 5; attempt++) {
      const inserted = await insertCommission(tx, {
        id,
        commissionNo: newCommissionNo(now),
        userId,
        service: form.service,
        title,
        form: form as unknown as Record<string, unknown>,
        goodsId: priced.goodsId,
        quantity: priced.quantity,
        status: order ? 'pending_payment' : 'quoting',
        orderId: order?.orderId ?? null,
        deadline,
        now,
      });
      if (!inserted) continue;
      await attachFiles(tx, id, fileIds);
      return inserted;
    }
    throw new Error('could not draw a free commission number');
  });
  return publicView(await viewOf(rt, row));
}

/** The client's view: without the owner id; the form only in the detail. */
function publicView(v: CommissionView) {
  const { userId: _u, form: _f, ...rest } = v;
  return rest;
}

export async function listOwn(
  rt: CommissionRuntime,
  userId: string,
  q: { service?: CommissionService; page: number; pageSize: number },
) {
  const { rows, total } = await listCommissions(
    rt.db,
    { userId, service: q.service },
    { offset: (q.page - 1) * q.pageSize, limit: q.pageSize },
  );
  return { total, list: (await viewsOf(rt, rows)).map(publicView) };
}

export async function detailOwn(rt: CommissionRuntime, userId: string, id: string) {
  const { userId: _u, ...view } = await viewOf(rt, await ownCommission(rt, userId, id));
  return view;
}

/** 待报价 -> cancelled; 待支付 -> its order cancelled (as /order/cancel does), then cancelled. */
export async function cancelOwn(rt: CommissionRuntime, userId: string, id: string) {
  const row = await ownCommission(rt, userId, id);
  const view = await viewOf(rt, row);
  if (!view.canCancel) throw new AppError(ErrorCode.CONFLICT, TEXTS.notCancellable);
  if (row.order_id) await rt.orders.cancelOrder(userId, row.order_id, { reason: TEXTS.transition.cancelled });
  const now = rt.now();
  const updated = await rt.db.transaction().execute(async (tx) => {
    const current = await findCommission(tx, { id: row.id }, { forUpdate: true });
    if (!current || !['quoting', 'pending_payment'].includes(current.status))
      throw new AppError(ErrorCode.CONFLICT, TEXTS.notCancellable);
    return updateCommission(tx, row.id, { status: 'cancelled', cancelled_at: now }, now);
  });
  return publicView(await viewOf(rt, updated));
}

/** One of the commission's files: the client's own attachments, and the reports once done. */
export async function openOwnFile(rt: CommissionRuntime, userId: string, id: string, fileId: string) {
  const row = await ownCommission(rt, userId, id);
  const file = (await filesOf(rt.db, [row.id])).find((f) => f.id === fileId);
  if (!file) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.fileNotFound);
  if (file.kind === 'report' && row.status !== 'done')
    throw new AppError(ErrorCode.CONFLICT, TEXTS.reportMissing);
  return { fileName: file.file_name, bytes: await rt.check.storage.get(file.storage_key) };
}

// --- payment and fulfilment ----------------------------------------------------------------------

/**
 * The onPaid handler of the four services: in the payment's transaction the commission becomes
 * 处理中 with its due date (the payment's day + its goods' turnaround days) and a job moves the
 * order to processing (markProcessing takes its own transaction).
 */
export async function startPaid(tx: Kysely<Database>, order: OrderView, now: Date): Promise<void> {
  const row = await findCommission(tx, { orderId: order.orderId }, { forUpdate: true });
  if (!row || row.status === 'processing' || row.status === 'done') return;
  const due = dueDateOf(now, await turnaroundDaysOf(tx, row.goods_id));
  await updateCommission(tx, row.id, { status: 'processing', paid_at: now, due_date: due }, now);
  await enqueue(
    tx,
    ACCEPT_JOB,
    { orderId: order.orderId },
    { dedupeKey: `commission-accept:${order.orderId}` },
  );
}

export async function acceptPaid(rt: CommissionRuntime, orderId: string): Promise<void> {
  const order = await rt.orders.getOrder(orderId);
  if (order?.status === 'paid') await rt.orders.markProcessing(orderId, TEXTS.transition.processing);
}

/** Sends the done notice once (notified_at is set first; a failed send is logged, not retried). */
export async function notifyDone(rt: CommissionRuntime, commissionId: string): Promise<void> {
  const now = rt.now();
  const claimed = await rt.db.transaction().execute(async (tx) => {
    const row = await findCommission(tx, { id: commissionId }, { forUpdate: true });
    if (row?.status !== 'done' || row.notified_at) return undefined;
    await updateCommission(tx, row.id, { notified_at: now }, now);
    return row;
  });
  if (!claimed || !rt.sms) return;
  const phone = (await phonesOf(rt.db, [claimed.user_id])).get(claimed.user_id);
  const order = claimed.order_id ? await rt.orders.getOrder(claimed.order_id) : undefined;
  if (!phone || !order) return;
  try {
    await rt.sms.provider.send({
      phone,
      purpose: TEXTS.smsPurpose,
      params: { code: order.orderNo },
      templateCode: rt.sms.templateCode,
    });
  } catch (error) {
    rt.logger.warn({ err: error, commissionId }, 'commission done SMS failed; the order shows it done');
  }
}
