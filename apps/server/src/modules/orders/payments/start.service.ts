import { ErrorCode } from '@kyfw/contracts';
import type { ServiceType } from '@kyfw/db';
import { AppError } from '../../../lib/app-error.ts';
import { type PayChannel, PaymentProviderError } from '../../../providers/payment/index.ts';
import { isPaidStatus } from '../order-state.ts';
import type { OrderRecord } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { getOrderForUser } from '../orders.service.ts';
import { money } from '../orders.view.ts';
import {
  type AttemptRecord,
  closeAttempt,
  countAttempts,
  insertOrGetOpenAttempt,
  listAttempts,
  setAttemptCode,
} from './attempts.repo.ts';
import { MAX_ATTEMPTS_PER_CHANNEL, MIN_PAY_WINDOW_MS, notifyUrlOf } from './payment-rules.ts';
import { findPendingProof } from './proofs.repo.ts';
import { reconcileAttempt } from './reconcile.service.ts';

// --- starting a payment -------------------------------------------------------------------------

export interface StartPaymentInput {
  userId: string;
  orderId: string;
  payType: PayChannel;
  /** Restricts to the calling service's orders (e.g. ['check'] for /freeCheck/...). */
  serviceTypes?: readonly ServiceType[];
}

export interface StartPaymentResult {
  /** What the QR code encodes; the browser draws it locally. */
  codeUrl: string;
  orderNo: string;
  /** The platform's order number; equals orderNo unless the user came back to a channel they had left. */
  outTradeNo: string;
  payType: PayChannel;
  /** Yuan, 2 decimals, e.g. '26.00'. */
  amount: string;
  amountFen: number;
  /** ISO-8601: the QR code stops working then. */
  expireAt: string;
}

/** Refuses orders that cannot be paid (any more), with the message the user sees. */
function assertPayable(order: OrderRecord, now: Date): void {
  if (isPaidStatus(order.status)) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  if (order.status === 'cancelled' || order.status === 'refunded')
    throw new AppError(ErrorCode.ORDER_CANCELLED);
  if (order.status === 'expired' || now.getTime() >= order.expireAt.getTime() - MIN_PAY_WINDOW_MS) {
    throw new AppError(ErrorCode.ORDER_EXPIRED);
  }
}

/**
 * Returns the QR code for paying the user's order with WeChat Pay or Alipay. Reuses the open QR
 * code of the same channel; switching channels first closes the other one at its platform (so one
 * order is not paid twice). Amount, description and expiry come from the order, never the browser.
 * @throws AppError RESOURCE_NOT_FOUND (not the user's order), ORDER_ALREADY_PAID, ORDER_EXPIRED,
 *   ORDER_CANCELLED, OFFLINE_PROOF_PENDING, PAYMENT_UNAVAILABLE (platform down; retry).
 */
export async function startPayment(rt: OrdersRuntime, input: StartPaymentInput): Promise<StartPaymentResult> {
  const order = await getOrderForUser(rt.db, input.userId, input.orderId, {
    serviceTypes: input.serviceTypes,
  });
  assertPayable(order, rt.now());
  if (await findPendingProof(rt.db, order.id)) throw new AppError(ErrorCode.OFFLINE_PROOF_PENDING);

  const attempts = await listAttempts(rt.db, order.id);
  if (attempts.some((a) => a.status === 'open' && a.channel !== input.payType)) {
    const closed = await closeOpenAttempts(rt, order, { except: input.payType });
    if (closed.paid) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
    if (closed.unavailable) throw new AppError(ErrorCode.PAYMENT_UNAVAILABLE);
  }
  const result = (attempt: AttemptRecord, codeUrl: string): StartPaymentResult => ({
    codeUrl,
    orderNo: order.orderNo,
    outTradeNo: attempt.outTradeNo,
    payType: input.payType,
    ...money(order.amountFen),
    expireAt: order.expireAt.toISOString(),
  });

  const open = attempts.find((a) => a.status === 'open' && a.channel === input.payType);
  if (open?.codeUrl) return result(open, open.codeUrl);

  const previous = open ? 0 : await countAttempts(rt.db, order.id, input.payType);
  if (previous >= MAX_ATTEMPTS_PER_CHANNEL) {
    throw new AppError(ErrorCode.RATE_LIMITED, '切换支付方式次数过多，请重新下单');
  }
  // The row exists before the platform is asked, so a notification or the reconciliation finds
  // it even if the create answer is lost; a retry sends the very same input (idempotent).
  const attempt =
    open ??
    (await insertOrGetOpenAttempt(rt.db, {
      orderId: order.id,
      channel: input.payType,
      outTradeNo: previous === 0 ? order.orderNo : `${order.orderNo}-${previous + 1}`,
      amountFen: order.amountFen,
      expireAt: order.expireAt,
      now: rt.now(),
    }));
  if (attempt.codeUrl) return result(attempt, attempt.codeUrl);

  let codeUrl: string;
  try {
    ({ codeUrl } = await rt.providers[input.payType].createQr({
      orderNo: attempt.outTradeNo,
      amountFen: attempt.amountFen,
      description: order.goodsName,
      expireAt: attempt.expireAt,
      notifyUrl: notifyUrlOf(rt, input.payType),
    }));
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    rt.logger.warn(
      { channel: input.payType, orderNo: order.orderNo, kind: error.kind, err: error },
      'creating the payment QR code failed',
    );
    if (error.kind === 'ORDER_PAID') {
      await reconcileAttempt(rt, attempt);
      throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
    }
    if (error.kind === 'ORDER_CLOSED') await closeAttempt(rt.db, attempt.id, rt.now());
    throw new AppError(ErrorCode.PAYMENT_UNAVAILABLE);
  }
  await setAttemptCode(rt.db, attempt.id, codeUrl, rt.now());
  return result(attempt, codeUrl);
}

/**
 * Closes the order's QR codes before it is paid another way (offline transfer).
 * @throws AppError ORDER_ALREADY_PAID when a platform reports it paid meanwhile.
 */
export async function closeQrCodesForOfflinePayment(rt: OrdersRuntime, order: OrderRecord): Promise<void> {
  const closed = await closeOpenAttempts(rt, order);
  if (closed.paid) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  // A platform that cannot be reached now: the reconciliation keeps asking about that code, and a
  // payment that still arrives is refunded as a duplicate once the transfer is confirmed.
}

/**
 * Closes the order's open QR codes at their platforms. A platform that says "already paid" gets
 * its payment recorded (paid: true). Alipay QR codes never scanned have no trade to close: they
 * stay open here and the reconciliation keeps asking until their expiry has passed.
 */
export async function closeOpenAttempts(
  rt: OrdersRuntime,
  order: OrderRecord,
  options: { except?: PayChannel } = {},
): Promise<{ paid: boolean; unavailable: boolean }> {
  let paid = false;
  let unavailable = false;
  for (const attempt of await listAttempts(rt.db, order.id)) {
    if (attempt.status !== 'open' || attempt.channel === options.except) continue;
    try {
      const closed = await rt.providers[attempt.channel].close(attempt.outTradeNo);
      if (closed.state === 'CLOSED') await closeAttempt(rt.db, attempt.id, rt.now());
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      if (error.kind === 'ORDER_PAID') {
        await reconcileAttempt(rt, attempt);
        paid = true;
      } else if (error.kind === 'ORDER_NOT_FOUND' || error.kind === 'ORDER_CLOSED') {
        await closeAttempt(rt.db, attempt.id, rt.now());
      } else {
        rt.logger.warn(
          { channel: attempt.channel, orderNo: order.orderNo, kind: error.kind },
          'closing a QR code failed',
        );
        unavailable = true;
      }
    }
  }
  return { paid, unavailable };
}
