import { EmptyState } from '../user-panel';

export default function WriteOrdersPage() {
  return <EmptyState text="暂无AI 写作订单" />;
}
