import { NavLink, Outlet } from 'react-router';
import { paths } from '../../../../config/paths';
import { orderTexts } from '../../../../features/orders';
import { UserPanel } from '../user-panel';

const tabs = [
  { route: 'user-order-write', name: orderTexts.tabs.write },
  { route: 'user-order-check', name: orderTexts.tabs.check },
  { route: 'user-order-reduction', name: orderTexts.tabs.reduction },
  { route: 'user-order-commission', name: orderTexts.tabs.commission },
] as const;

/** /user/order: the order kinds as tabs; each tab is an OrderTabPage with its service's extension. */
export default function UserOrderLayout() {
  return (
    <UserPanel
      title="我的订单"
      description="查看订单状态与详情；待支付的订单可在有效期内继续支付，不需要的订单可以取消或删除。"
    >
      <nav className="area-tabs area-tabs--light" aria-label="订单类型">
        {tabs.map((tab) => (
          <NavLink
            key={tab.route}
            to={paths[tab.route]}
            className={({ isActive }) => (isActive ? 'area-tab is-active' : 'area-tab')}
          >
            {tab.name}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </UserPanel>
  );
}
