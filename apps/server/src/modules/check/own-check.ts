import { ErrorCode } from '@kyfw/contracts';
import { AppError } from '../../lib/app-error.ts';
import { isUuid } from '../../lib/uuid.ts';
import { type CheckRecord, findUserCheck } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';

/** Finding the caller's own check, and whether its order is paid and kept: shared by the use cases. */

export async function getOwnCheck(rt: CheckRuntime, userId: string, orderId: string): Promise<CheckRecord> {
  const check = isUuid(orderId) ? await findUserCheck(rt.db, userId, orderId) : undefined;
  if (!check) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '订单不存在或已删除');
  return check;
}

/** The check's order as the status needs it (an OrderView). */
export interface OrderOfCheck {
  status: string;
  statusText: string;
  canPay: boolean;
  payStatus: number;
  autoRefund: boolean;
  autoRefundFailed: boolean;
  /** A transfer proof waits for an operator (the order says 待确认). */
  offlinePending: boolean;
}

/** The order is paid and its money is not on its way back. */
export function paidAndKept(
  order: Pick<OrderOfCheck, 'payStatus' | 'autoRefund'> | null | undefined,
): boolean {
  return order != null && !order.autoRefund && order.payStatus === 1;
}
