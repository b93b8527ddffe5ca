import { NavLink, Outlet } from 'react-router';
import { paths } from '../../../../config/paths';
import { UserPanel } from '../user-panel';

const tabs = [
  { route: 'user-order-write', name: '写作订单' },
  { route: 'user-order-check', name: '查重订单' },
  { route: 'user-order-reduction', name: '降重订单' },
] as const;

/** /user/order: the order kinds as tabs. */
export default function UserOrderLayout() {
  return (
    <UserPanel title="我的订单" description="查看订单状态、支付待付款订单、下载报告与文档。">
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
