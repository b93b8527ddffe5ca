import { OrderTabPage } from '../../../../features/orders';

/** 降重订单 (降重 and 降AIGC). The reduction service passes its `extension` here. */
export default function ReductionOrdersPage() {
  return <OrderTabPage tab="reduction" />;
}
