import { getJob } from '../../jobs/index.ts';
import { isUuid } from '../../lib/uuid.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { type AigcAddonRecord, findAddon, findAddons } from './aigc/aigc-addon.repo.ts';
import { addonView } from './aigc/aigc-addon.ts';
import { aigcReliableOf } from './aigc/aigc-report.ts';
import { type CheckRecord, findCheck, findUserCheck, listUserChecks } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { CHECK_STAGE_TEXTS, CHECK_STATUS_TEXTS, TEXTS } from './check.texts.ts';
import { failedFreeText } from './check-goods.service.ts';
import { failCheck } from './failure.service.ts';
import { getOwnCheck, type OrderOfCheck, paidAndKept } from './own-check.ts';

/** What the pages poll and list: the check's status view (reconciled with its job) and the user's list. */

/** A queued/running check whose job failed or vanished without its handler noticing (e.g. crashed on the last attempt). */
export async function reconcile(rt: CheckRuntime, check: CheckRecord): Promise<CheckRecord> {
  if (check.status !== 'queued' && check.status !== 'running') return check;
  if (!check.jobId) return check;
  const job = await getJob(rt.db, check.jobId);
  if (job && (job.status === 'queued' || job.status === 'running' || job.status === 'succeeded'))
    return check;
  const reason = `${TEXTS.jobLost}。${check.free ? failedFreeText(check.kind) : TEXTS.failedPaid}`;
  await failCheck(rt, check, reason);
  return (await findCheck(rt.db, check.id)) ?? check;
}

/** A failed check may run again: a free one (its entitlement came back), or a paid one still paid for. */
function canRetry(check: CheckRecord, order: OrderOfCheck | undefined): boolean {
  if (check.status !== 'failed') return false;
  return check.free || paidAndKept(order);
}

export function statusView(check: CheckRecord, orderStatus?: OrderOfCheck, addon?: AigcAddonRecord) {
  let statusText = CHECK_STATUS_TEXTS[check.status];
  if (check.status === 'pending') {
    if (check.free) statusText = TEXTS.freeStatus;
    else if (orderStatus?.offlinePending) statusText = orderStatus.statusText;
    else if (orderStatus && orderStatus.status !== 'pending_payment')
      statusText = TEXTS.orderClosed(orderStatus.statusText);
    else if (orderStatus && !orderStatus.canPay) statusText = TEXTS.orderClosed('已过期');
  }
  // A paid check that failed: its order says where the money is (检测失败，已自动退款).
  let failureReason = check.failureReason;
  if (check.status === 'failed' && orderStatus?.autoRefund) {
    statusText = orderStatus.statusText;
    // The stored reason promised the automatic refund; the platform refused it.
    if (orderStatus.autoRefundFailed)
      failureReason =
        orderStatus.status === 'refunded' ? TEXTS.failedPaidRefundedByHand : TEXTS.failedPaidRefundFailed;
  }
  // Ended by an operator's full refund before its report (checkRefundedHandler): 已退款.
  if (check.status === 'failed' && !orderStatus?.autoRefund && orderStatus?.status === 'refunded')
    statusText = TEXTS.refundedStatus;
  return {
    orderId: check.id,
    free: check.free,
    /** similarity (查重) | aigc (AIGC检测) */
    kind: check.kind,
    /** pending (waiting for payment / the free start) | queued | running | done | failed */
    checkStatus: check.status,
    checkStatusText: statusText,
    stage: check.stage,
    stageText: check.stage ? CHECK_STAGE_TEXTS[check.stage] : null,
    /** 0–100 */
    progress: check.status === 'done' ? 100 : check.progress,
    failureReason,
    canRetry: canRetry(check, orderStatus),
    reportReady: check.status === 'done',
    /** The AIGC detection ordered with the check (decision 0020); null without it. */
    aigcAddon: addonView(addon),
  };
}

/**
 * The order of a paid check that is failed (where its money is) or waiting for payment (expired or
 * closed orders say so, as in the list); undefined otherwise.
 */
async function orderOfCheck(rt: CheckRuntime, check: CheckRecord) {
  if ((check.status !== 'failed' && check.status !== 'pending') || check.free || !check.orderId)
    return undefined;
  return rt.orders.getOrder(check.orderId);
}

/** What a polling page needs (also merged into /freeCheck/orderPayStatus). */
export async function getCheckStatus(rt: CheckRuntime, userId: string, orderId: string) {
  const check = await reconcile(rt, await getOwnCheck(rt, userId, orderId));
  return statusView(check, await orderOfCheck(rt, check), await findAddon(rt.db, check.id));
}

/** Like getCheckStatus, but null when the user has no such check (an order of another kind). */
export async function findCheckStatus(rt: CheckRuntime, userId: string, orderId: string) {
  const found = isUuid(orderId) ? await findUserCheck(rt.db, userId, orderId) : undefined;
  if (!found) return null;
  const check = await reconcile(rt, found);
  return statusView(check, await orderOfCheck(rt, check), await findAddon(rt.db, check.id));
}

export async function listChecks(rt: CheckRuntime, userId: string, page: number, pageSize: number) {
  const { total, rows } = await listUserChecks(rt.db, userId, {
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const orders = rt.orders;
  const addons = await findAddons(
    rt.db,
    rows.map((r) => r.check.id),
  );
  const list = [];
  for (const row of rows) {
    const check = await reconcile(rt, row.check);
    const order = check.orderId ? await orders.getOrder(check.orderId) : undefined;
    const status = statusView(check, order, addons.get(check.id));
    const awaitingPayment = check.status === 'pending' && !check.free && order?.canPay === true;
    list.push({
      ...status,
      orderNo: order?.orderNo ?? check.checkNo,
      title: check.title,
      author: check.author,
      fileName: check.fileName,
      goodsId: check.goodsId,
      goodsName: order?.goodsName ?? null,
      /** The order's parts (the check and the AIGC add-on, each priced by the server); [] otherwise. */
      parts: order?.parts ?? [],
      chars: check.chars,
      amount: formatFenAsYuan(check.amountFen),
      amountFen: check.amountFen,
      free: check.free,
      payStatus: order ? order.payStatus : check.status === 'pending' ? 0 : 1,
      orderStatus: order?.status ?? null,
      /** A transfer proof waits for an operator: no 去支付, no 删除; `offlinePendingText` says what next. */
      offlinePending: order?.offlinePending === true,
      offlinePendingText: order?.offlinePendingText ?? null,
      createdAt: check.createdAt.toISOString(),
      finishedAt: check.finishedAt?.toISOString() ?? null,
      reportNo: row.report?.reportNo ?? null,
      /** 总文字复制比 (0–1) once the report exists; for an AIGC check its AIGC index / 100. */
      ratio: row.report?.ratio ?? null,
      /** AIGC check: whether its index is in the reliable range (else 未见明显AI生成特征). */
      aigcReliable: check.kind === 'aigc' && row.report ? aigcReliableOf(row.report.summary) : null,
      aigcFlaggedChars: check.kind === 'aigc' && row.report ? row.report.copiedChars : null,
      actions: {
        view: check.status === 'done',
        download: check.status === 'done',
        pay: awaitingPayment,
        start: check.status === 'pending' && check.free,
        retry: status.canRetry,
        // Not while it runs, nor once paid and about to start, nor while a transfer proof waits for
        // an operator (deleteCheck refuses all three).
        delete:
          check.status !== 'queued' &&
          check.status !== 'running' &&
          !(check.status === 'pending' && (order?.payStatus === 1 || order?.offlinePending === true)),
      },
    });
  }
  return { total, list };
}
