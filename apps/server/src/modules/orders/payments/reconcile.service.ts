import { PaymentProviderError } from '../../../providers/payment/index.ts';
import { findOrderById } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { type AttemptRecord, claimAttemptQuery, closeAttempt, listOpenAttempts } from './attempts.repo.ts';
import { confirmPayment, retryPaidHooks } from './confirm.service.ts';
import { EXPIRY_GRACE_MS, RECONCILE_MIN_AGE_MS } from './payment-rules.ts';
import { listOpenRefunds } from './refunds.repo.ts';
import { executeRefund } from './refunds.service.ts';

// --- reconciliation and expiry (jobs) -----------------------------------------------------------

/**
 * Asks the platform about one QR code and acts on the answer: a payment is recorded (a lost
 * notification never loses money), a closed one is closed here, and one that should no longer be
 * payable (order not pending, or expired) is closed at the platform.
 */
export async function reconcileAttempt(
  rt: OrdersRuntime,
  attempt: AttemptRecord,
): Promise<'paid' | 'closed' | 'open'> {
  const provider = rt.providers[attempt.channel];
  const now = rt.now();
  const order = await findOrderById(rt.db, attempt.orderId);
  const pastExpiry = now.getTime() >= attempt.expireAt.getTime() + EXPIRY_GRACE_MS;
  let query: Awaited<ReturnType<typeof provider.query>>;
  try {
    query = await provider.query(attempt.outTradeNo);
  } catch (error) {
    if (error instanceof PaymentProviderError && error.kind === 'ORDER_NOT_FOUND') {
      if (pastExpiry || order?.status !== 'pending_payment') {
        await closeAttempt(rt.db, attempt.id, now);
        return 'closed';
      }
      return 'open';
    }
    throw error;
  }
  if (query.state === 'SUCCESS' || query.state === 'REFUND') {
    if (!query.transactionId || query.amountFen === undefined) return 'open';
    await confirmPayment(rt, {
      channel: attempt.channel,
      outTradeNo: attempt.outTradeNo,
      transactionId: query.transactionId,
      amountFen: query.amountFen,
      paidAt: query.paidAt ?? now,
      raw: { query: { state: query.state, transactionId: query.transactionId, amountFen: query.amountFen } },
      source: 'reconciliation',
    });
    return 'paid';
  }
  if (query.state === 'CLOSED' || query.state === 'PAYERROR') {
    await closeAttempt(rt.db, attempt.id, now);
    return 'closed';
  }
  // NOTPAY / USERPAYING
  if (order?.status !== 'pending_payment' || now.getTime() >= attempt.expireAt.getTime()) {
    try {
      const closed = await provider.close(attempt.outTradeNo);
      if (closed.state === 'CLOSED' || pastExpiry) {
        await closeAttempt(rt.db, attempt.id, now);
        return 'closed';
      }
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      if (error.kind === 'ORDER_CLOSED' || error.kind === 'ORDER_NOT_FOUND') {
        await closeAttempt(rt.db, attempt.id, now);
        return 'closed';
      }
      // ORDER_PAID: the next run's query records it; anything else: try again next run.
    }
  }
  return 'open';
}

/**
 * How often the reconciliation asks about one open QR code: every run while it is young (a payment
 * is most likely then), every 5 minutes once it is 10 minutes old, and every run again once its
 * expiry has passed (it is due to be closed). Abandoned codes thus cost ~30 queries, not ~120.
 */
function reconcileIntervalMs(attempt: AttemptRecord, now: Date): number {
  const age = now.getTime() - attempt.createdAt.getTime();
  if (now.getTime() >= attempt.expireAt.getTime() || age < 10 * 60_000) return RECONCILE_MIN_AGE_MS / 2;
  return 5 * 60_000;
}

/** The reconciliation job: open QR codes, unfinished refunds, failed onPaid handlers. */
export async function reconcile(rt: OrdersRuntime, limit = 100) {
  const now = rt.now();
  const summary = { attempts: 0, paid: 0, closed: 0, errors: 0, refunds: 0, hooks: 0 };
  for (const attempt of await listOpenAttempts(
    rt.db,
    new Date(now.getTime() - RECONCILE_MIN_AGE_MS),
    limit,
  )) {
    if (!(await claimAttemptQuery(rt.db, attempt.id, now, reconcileIntervalMs(attempt, now)))) continue;
    summary.attempts++;
    try {
      const state = await reconcileAttempt(rt, attempt);
      if (state === 'paid') summary.paid++;
      if (state === 'closed') summary.closed++;
    } catch (error) {
      summary.errors++;
      rt.logger.warn({ err: error, outTradeNo: attempt.outTradeNo }, 'reconciliation: platform query failed');
    }
  }
  for (const refund of await listOpenRefunds(rt.db, new Date(now.getTime() - 5_000), limit)) {
    summary.refunds++;
    await executeRefund(rt, refund.id).catch((error) =>
      rt.logger.warn({ err: error, refundNo: refund.refundNo }, 'reconciliation: refund failed'),
    );
  }
  summary.hooks = await retryPaidHooks(rt);
  return summary;
}
