import type { OrderTabExtension } from '../../orders';
import { commissionTexts as T } from '../texts';

const OPEN = new Set(['pending_payment', 'paid', 'processing', 'done']);

/**
 * The commission orders' tab of /user/order: 选择收货地址 (printed copies by courier) only for the
 * commissions whose client chose 电子版 + 纸质版 (the order's meta says so).
 */
export const commissionOrderTab: OrderTabExtension = {
  deliverable: (order) => order.meta.delivery === 'print' && OPEN.has(order.status),
  emptyText: T.orders.empty,
};
