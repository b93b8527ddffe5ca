import { ErrorCode } from '@kyfw/contracts';
import { AppError } from '../../lib/app-error.ts';
import { findAddon } from './aigc/aigc-addon.repo.ts';
import { type CheckRecord, hideCheck, lockCheck } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';
import { findReport } from './check-reports.repo.ts';
import { getOwnCheck } from './own-check.ts';
import { deleteRevisionsOfCheck } from './revise/revise.repo.ts';
import { reconcile } from './status.service.ts';

/**
 * Cancels the order of a check being deleted while it still awaits payment, through the orders
 * module (its QR codes closed first; a payment arriving later is refunded as a late one). An order
 * no longer pending (paid, expired, cancelled) is left as it is.
 */
async function cancelUnpaidOrder(rt: CheckRuntime, userId: string, check: CheckRecord): Promise<void> {
  if (!check.orderId) return;
  const orders = rt.orders;
  const order = await orders.getOrder(check.orderId);
  if (order?.status !== 'pending_payment') return;
  try {
    await orders.cancelOrder(userId, order.orderId, { reason: TEXTS.orderCancelledByDelete });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Expired or cancelled meanwhile: nothing left to cancel.
    if (error.code === ErrorCode.ORDER_NOT_CANCELLABLE) return;
    // Paid meanwhile: the check starts now and cannot be deleted.
    if (error.code === ErrorCode.ORDER_ALREADY_PAID)
      throw new AppError(ErrorCode.CHECK_IN_PROGRESS, TEXTS.paidWhileDeleting, { cause: error });
    // A platform that cannot close the QR code now, an offline payment under review: not deleted.
    throw error;
  }
}

/**
 * /freeCheck/deleteOrder: hides the check and removes its files (upload, text, report files). An
 * order still awaiting payment is cancelled first (with the reason); any other order and its
 * payments stay (money records are never deleted); the signed report summary stays so a printed
 * report can still be verified.
 *
 * A payment can still be accepted for an unpaid check that is being or has been deleted: an
 * expired order (it cannot be cancelled) whose payment was made before its expiry and is reported
 * late, or one landing while this runs. The delete and the payment both lock the check's row — the
 * payment in its onPaid hook, inside the transaction that marks the order paid — so exactly one
 * wins: a payment accepted first (check queued, or order paid and its hook still to run) makes the
 * delete fail with 4010 and the check runs; a delete first makes the hook answer that the service
 * can no longer be delivered, and the orders module refunds the payment (no check job runs).
 */
export async function deleteCheck(rt: CheckRuntime, userId: string, orderId: string): Promise<void> {
  const check = await reconcile(rt, await getOwnCheck(rt, userId, orderId));
  if (check.status === 'queued' || check.status === 'running')
    throw new AppError(ErrorCode.CHECK_IN_PROGRESS);
  if (check.status === 'pending') await cancelUnpaidOrder(rt, userId, check);
  const orders = rt.orders;
  const hidden = await rt.db.transaction().execute(async (tx) => {
    const current = await lockCheck(tx, check.id);
    if (!current || current.hiddenAt) return undefined; // deleted meanwhile (a second click)
    if (current.status === 'queued' || current.status === 'running') {
      throw new AppError(
        ErrorCode.CHECK_IN_PROGRESS,
        check.status === 'pending' ? TEXTS.paidWhileDeleting : undefined,
      );
    }
    if (current.status === 'pending' && current.orderId) {
      // Paid, its check not queued yet (the onPaid hook is retried shortly): it will run.
      const order = await orders.getOrder(current.orderId, { tx });
      if (order?.payStatus === 1) throw new AppError(ErrorCode.CHECK_IN_PROGRESS, TEXTS.paidWhileDeleting);
    }
    const report = await findReport(tx, current.id);
    const addon = await findAddon(tx, current.id);
    await hideCheck(tx, current.id, rt.now());
    // The paper's revisions (its edited text) go with it.
    await deleteRevisionsOfCheck(tx, current.id);
    return { current, report, addon };
  });
  if (!hidden) return;
  const { current, report, addon } = hidden;
  const keys = [
    current.fileKey,
    current.textKey,
    report?.modelKey,
    report?.pdfKey,
    report?.markedPdfKey,
    report?.htmlKey,
    report?.zipKey,
    addon?.modelKey,
  ].filter((k): k is string => typeof k === 'string');
  for (const key of keys) await rt.storage.delete(key);
  const folders = new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/'))));
  for (const folder of folders) await rt.storage.deleteFolder(folder).catch(() => undefined);
}
