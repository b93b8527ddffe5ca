import type { Order } from '@kyfw/contracts';
import { Spin } from 'antd';
import type { OrderTabExtension } from '../../orders';
import { useCommission } from '../api/get-commission';
import { commissionTexts as T } from '../texts';
import { CommissionProgress } from './commission-progress';

const OPEN = new Set(['pending_payment', 'paid', 'processing', 'done']);

/**
 * The commission orders' tab of /user/order: the commission's progress and reports at the top of
 * the order's detail, 选择收货地址 (printed copies by courier) only for the
 * commissions whose client chose 电子版 + 纸质版 (the order's meta says so).
 */
export const commissionOrderTab: OrderTabExtension = {
  deliverable: (order) => order.meta.delivery === 'print' && OPEN.has(order.status),
  emptyText: T.orders.empty,
  detail: (order) => <OrderCommission order={order} />,
};

/** The order's commission (serviceRef) at the top of the order's detail: progress and reports. */
function OrderCommission({ order }: { order: Order }) {
  const commission = useCommission(order.serviceRef);
  if (!commission.data) return commission.isPending ? <Spin size="small" /> : null;
  return (
    <section className="commission-detail" aria-label={T.orders.detailTitle}>
      <CommissionProgress commission={commission.data} />
    </section>
  );
}
