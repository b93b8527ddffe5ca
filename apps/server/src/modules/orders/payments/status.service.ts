import type { ServiceType } from '@kyfw/db';
import { isPaidStatus } from '../order-state.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { getOrderForUser } from '../orders.service.ts';
import { claimAttemptQuery, listAttempts } from './attempts.repo.ts';
import { POLL_QUERY_INTERVAL_MS, POLL_QUERY_MIN_AGE_MS } from './payment-rules.ts';
import { findPendingProof } from './proofs.repo.ts';
import { reconcileAttempt } from './reconcile.service.ts';

// --- status -------------------------------------------------------------------------------------

/**
 * The pay status the payment dialog polls every 3 s: payStatus 1 once paid. While an order is
 * pending with a QR code older than 10 s, this also asks the platform (at most every 10 s per QR
 * code), so a slow or lost notification does not keep the user waiting.
 */
export async function getPayStatus(
  rt: OrdersRuntime,
  userId: string,
  orderId: string,
  options: { serviceTypes?: readonly ServiceType[] } = {},
) {
  let order = await getOrderForUser(rt.db, userId, orderId, options);
  if (order.status === 'pending_payment') {
    const now = rt.now();
    const candidates = (await listAttempts(rt.db, order.id)).filter(
      (a) =>
        a.status === 'open' && a.codeUrl && now.getTime() - a.createdAt.getTime() >= POLL_QUERY_MIN_AGE_MS,
    );
    for (const attempt of candidates) {
      if (!(await claimAttemptQuery(rt.db, attempt.id, now, POLL_QUERY_INTERVAL_MS))) continue;
      await reconcileAttempt(rt, attempt).catch((error) =>
        rt.logger.warn({ err: error, orderNo: order.orderNo }, 'pay status: platform query failed'),
      );
    }
    if (candidates.length > 0) order = await getOrderForUser(rt.db, userId, orderId, options);
  }
  const proof = order.status === 'pending_payment' ? await findPendingProof(rt.db, order.id) : undefined;
  return {
    payStatus: isPaidStatus(order.status) ? 1 : 0,
    status: order.status,
    orderNo: order.orderNo,
    payChannel: order.payChannel,
    paidAt: order.paidAt?.toISOString() ?? null,
    expireAt: order.expireAt.toISOString(),
    /** An offline transfer proof is waiting for an operator. */
    offlinePending: proof !== undefined,
  };
}
