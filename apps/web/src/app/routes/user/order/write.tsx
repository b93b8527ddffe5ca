import { OrderTabPage } from '../../../../features/orders/components/order-tab-page';

/** 写作订单 (AI 写作). The AI-writing service passes its `extension` here. */
export default function WriteOrdersPage() {
  return <OrderTabPage tab="write" />;
}
