import { EmptyState, UserPanel } from './user-panel';

export default function UserPaymentRecordsPage() {
  return (
    <UserPanel title="支付记录" description="查看每一笔支付的时间、方式与金额。">
      <EmptyState text="暂无支付记录" />
    </UserPanel>
  );
}
