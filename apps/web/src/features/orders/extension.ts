import type { ReactNode } from 'react';
import type { PayEndpoints, PayStatus } from '../payment';
import type { Order, OrderDetail } from './types';

/**
 * How a service fills its tab of /user/order (the extension point). The shared list (order no,
 * goods, amount, status, time), the detail drawer and the 去支付 / 取消 / 删除 actions are built
 * in; a service adds its own columns, actions and detail section, and may load its own data for
 * the orders on the page (e.g. the check's rate by `serviceRef`). Pass it to the tab's page:
 *
 * ```tsx
 * // apps/web/src/app/routes/user/order/check.tsx
 * export default function CheckOrdersPage() {
 *   return <OrderTabPage tab="check" extension={checkOrderTab} />;
 * }
 * ```
 */
export interface OrderTabExtension<TExtra = unknown> {
  /** Loads the service's data for the orders of the current page, keyed by orderId. */
  loadExtra?: (orders: Order[]) => Promise<Record<string, TExtra>>;
  /** Extra columns, placed after 商品. */
  columns?: OrderColumn<TExtra>[];
  /** Extra actions of a row, placed before the built-in ones. */
  actions?: (order: Order, ctx: OrderRowContext<TExtra>) => ReactNode;
  /** A section at the top of the detail drawer. */
  detail?: (order: OrderDetail, ctx: OrderRowContext<TExtra>) => ReactNode;
  /** The service's pay endpoints; default /order/pay and /order/payStatus (any order). */
  payEndpoints?: PayEndpoints;
  /** After 去支付 succeeded (the list is refreshed anyway), e.g. navigate to the progress page. */
  onPaid?: (order: Order, status: PayStatus) => void;
  /**
   * Whether a printed report can be sent by courier for this order (then the detail offers
   * 选择收货地址). Default: check, search-report and tech-search orders that are not closed.
   */
  deliverable?: (order: Order) => boolean;
  /**
   * Replaces the built-in 删除 (POST /order/delete), e.g. with the service's own delete
   * (/freeCheck/deleteOrder). Resolve true when it was deleted.
   */
  deleteOrder?: (order: Order) => Promise<boolean>;
  /** The empty-list text; default per tab. */
  emptyText?: string;
}

export interface OrderColumn<TExtra = unknown> {
  key: string;
  title: ReactNode;
  width?: number;
  align?: 'left' | 'center' | 'right';
  render: (order: Order, ctx: OrderRowContext<TExtra>) => ReactNode;
}

/** What columns, actions and the detail section get besides the order. */
export interface OrderRowContext<TExtra = unknown> {
  /** The service's data for this order (from loadExtra), undefined until loaded. */
  extra: TExtra | undefined;
  /** Reloads the list (and the service's data). */
  refresh: () => void;
  /** Opens the payment dialog for the order. */
  pay: (order: Order) => void;
  /** Opens the detail drawer. */
  openDetail: (order: Order) => void;
}

const DELIVERABLE_SERVICES = new Set<Order['serviceType']>(['check', 'search_report', 'tech_search']);
const DELIVERABLE_STATUSES = new Set<Order['status']>(['pending_payment', 'paid', 'processing', 'done']);

export function defaultDeliverable(order: Order): boolean {
  return DELIVERABLE_SERVICES.has(order.serviceType) && DELIVERABLE_STATUSES.has(order.status);
}
