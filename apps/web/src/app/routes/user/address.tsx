import { EmptyState, UserPanel } from './user-panel';

export default function UserAddressPage() {
  return (
    <UserPanel title="收货地址" description="用于邮寄纸质检测报告、检索报告与发票，可设置默认地址。">
      <EmptyState text="还没有收货地址" />
    </UserPanel>
  );
}
