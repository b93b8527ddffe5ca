import { OrderTabPage } from '../../../../features/orders/components/order-tab-page';

/**
 * 查重订单. The check service adds its columns and actions (rate, report, download) by passing an
 * `extension` (features/orders/extension.ts), e.g. `<OrderTabPage tab="check" extension={checkOrderTab} />`.
 */
export default function CheckOrdersPage() {
  return <OrderTabPage tab="check" />;
}
