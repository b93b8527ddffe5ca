import { EmptyState, UserPanel } from './user-panel';

export default function UserInvoicePage() {
  return (
    <UserPanel
      title="发票管理"
      description="为已支付的订单申请电子发票，填写发票抬头、纳税人识别号与接收邮箱。"
    >
      <EmptyState text="暂无发票申请记录" />
    </UserPanel>
  );
}
