import { checkTexts as t } from '../texts';
import type { CheckListItem } from '../types';

type Row = Pick<
  CheckListItem,
  'checkStatus' | 'free' | 'orderStatus' | 'payStatus' | 'actions' | 'offlinePending'
> & { kind?: CheckListItem['kind'] };

/**
 * The confirmation of 删除 for one row of 查重订单: what /freeCheck/deleteOrder does to this check
 * (docs/api/check.md, "My checks"). Every delete removes the uploaded paper and any report files for
 * good; besides that it depends on the row:
 * - awaiting payment (order pending_payment): the order is cancelled; a payment still arriving is
 *   refunded in full automatically — nothing is charged;
 * - unpaid, its order cancelled or expired: nothing to cancel, nothing charged (a late payment is
 *   refunded);
 * - a free check not started: the free check was not used (it is used when the check starts);
 * - done: the report cannot be viewed or downloaded again; orders and payments stay, and the signed
 *   summary stays, so a printed report can still be verified;
 * - failed: a free check's use was already given back; a paid one keeps its order and payments, and
 *   the delete does not touch a refund;
 * - refunded (the order's money given back in full): the refund and payment records stay.
 */
export function deleteConfirmText(row: Row): string {
  const texts = t.deleteConfirm;
  const refunded = row.orderStatus === 'refunded';
  if (row.checkStatus === 'done') {
    if (row.free) return texts.doneFree;
    return refunded ? texts.doneRefunded : texts.done;
  }
  if (row.checkStatus === 'failed') {
    if (row.free) return row.kind === 'aigc' ? texts.failedFreeAigc : texts.failedFree;
    return refunded ? texts.refunded : texts.failedPaid;
  }
  if (row.free) return row.kind === 'aigc' ? texts.freeNotStartedAigc : texts.freeNotStarted;
  if (refunded) return texts.refunded;
  if (row.orderStatus === null || row.orderStatus === 'pending_payment') return texts.unpaid;
  return texts.closed;
}

/**
 * Why 删除 is not offered for a row, or null: a check being run (queued or running), a paid one
 * about to start — the server refuses both (4010) until the check is done — or one whose transfer
 * proof waits for an operator (3012).
 */
export function deleteBlockedReason(row: Row): string | null {
  if (row.actions.delete) return null;
  if (row.checkStatus === 'queued' || row.checkStatus === 'running') return t.deleteBlocked.running;
  if (row.checkStatus === 'pending' && row.payStatus === 1) return t.deleteBlocked.paidStarting;
  if (row.checkStatus === 'pending' && row.offlinePending) return t.deleteBlocked.offlinePending;
  return null;
}
