import { EmptyState } from '../user-panel';

export default function CheckOrdersPage() {
  return <EmptyState text="暂无查重订单" />;
}
