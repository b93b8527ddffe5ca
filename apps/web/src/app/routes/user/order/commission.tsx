import { CommissionList, commissionOrderTab, commissionTexts } from '../../../../features/commission';
import { OrderTabPage } from '../../../../features/orders';

/** 检索查新订单: the commissions (also those waiting for a quote), then their orders. */
export default function CommissionOrdersPage() {
  return (
    <>
      <CommissionList />
      <h3 className="section-title">{commissionTexts.orders.ordersTitle}</h3>
      <OrderTabPage tab="commission" extension={commissionOrderTab} />
    </>
  );
}
