import { EmptyState } from '../user-panel';

export default function ReductionOrdersPage() {
  return <EmptyState text="暂无降重订单" />;
}
