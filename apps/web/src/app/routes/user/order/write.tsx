import { OrderTabPage } from '../../../../features/orders';

/** 写作订单 (AI 写作). The AI-writing service passes its `extension` here. */
export default function WriteOrdersPage() {
  return <OrderTabPage tab="write" />;
}
