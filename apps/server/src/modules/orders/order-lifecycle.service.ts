import { ErrorCode } from '@kyfw/contracts';
import { AppError } from '../../lib/app-error.ts';
import { isPaidStatus } from './order-state.ts';
import { findOrderById, listExpiredPendingOrders, lockOrder, updateOrderStatus } from './orders.repo.ts';
import type { OrdersRuntime } from './orders.runtime.ts';
import { getOrderForUser } from './orders.service.ts';
import { TEXTS } from './orders.texts.ts';
import { findPendingProof } from './payments/proofs.repo.ts';
import { closeOpenAttempts } from './payments/start.service.ts';

/**
 * The expiry job: pending orders past their payment time (and without an offline proof under
 * review) are closed at the platforms and marked expired. A platform that reports the order paid
 * meanwhile wins: the order becomes paid instead.
 */
export async function expireDueOrders(rt: OrdersRuntime, limit = 100) {
  let expired = 0;
  let paid = 0;
  for (const order of await listExpiredPendingOrders(rt.db, rt.now(), limit)) {
    const closed = await closeOpenAttempts(rt, order);
    if (closed.paid) {
      paid++;
      continue;
    }
    const done = await rt.db.transaction().execute(async (tx) => {
      const current = await lockOrder(tx, order.id);
      if (current?.status !== 'pending_payment') return false;
      if (await findPendingProof(tx, order.id)) return false;
      return (
        (await updateOrderStatus(tx, {
          orderId: order.id,
          from: 'pending_payment',
          to: 'expired',
          actor: 'system',
          reason: TEXTS.transition.expired,
          now: rt.now(),
        })) !== undefined
      );
    });
    if (done) expired++;
  }
  return { expired, paid };
}

// --- cancel -------------------------------------------------------------------------------------

/**
 * The user cancels a pending order: its QR codes are closed at the platforms first, so a payment
 * cannot slip in after the cancel (a platform that reports it paid makes the cancel fail). The
 * transition is recorded as the user's, with `reason` (default 用户取消订单).
 * @throws AppError ORDER_NOT_CANCELLABLE / ORDER_ALREADY_PAID / OFFLINE_PROOF_PENDING / PAYMENT_UNAVAILABLE
 */
export async function cancelOrder(
  rt: OrdersRuntime,
  userId: string,
  orderId: string,
  reason: string = TEXTS.transition.cancelledByUser,
): Promise<void> {
  const order = await getOrderForUser(rt.db, userId, orderId);
  if (isPaidStatus(order.status)) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  if (order.status !== 'pending_payment') throw new AppError(ErrorCode.ORDER_NOT_CANCELLABLE);
  if (await findPendingProof(rt.db, order.id)) throw new AppError(ErrorCode.OFFLINE_PROOF_PENDING);
  const closed = await closeOpenAttempts(rt, order);
  if (closed.paid) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  if (closed.unavailable) throw new AppError(ErrorCode.PAYMENT_UNAVAILABLE);
  const cancelled = await rt.db.transaction().execute((tx) =>
    updateOrderStatus(tx, {
      orderId: order.id,
      from: 'pending_payment',
      to: 'cancelled',
      actor: 'user',
      reason,
      now: rt.now(),
    }),
  );
  if (!cancelled) {
    const current = await findOrderById(rt.db, order.id);
    throw new AppError(
      current && isPaidStatus(current.status)
        ? ErrorCode.ORDER_ALREADY_PAID
        : ErrorCode.ORDER_NOT_CANCELLABLE,
    );
  }
}
