import {
  AuditOutlined,
  CreditCardOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LockOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { MESSAGES } from '@kyfw/contracts';
import { Avatar } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Navigate, NavLink, Outlet } from 'react-router';
import { paths } from '../../../config/paths';
import {
  authTexts,
  displayName,
  getAccountMenuEntries,
  isLoggedIn,
  useSession,
} from '../../../features/auth';
import { toast } from '../../../stores/ui-store';
import { shellTexts } from '../../texts';

const icons: Record<string, ReactNode> = {
  orders: <FileTextOutlined />,
  paymentRecords: <CreditCardOutlined />,
  info: <IdcardOutlined />,
  password: <LockOutlined />,
  address: <EnvironmentOutlined />,
  invoice: <AuditOutlined />,
};

/**
 * The user area (/user/*): a side menu (the account menu in its compact mode, plus invoices) and
 * the page. The route loader has already checked the token cookie; here the case of a token the
 * server no longer accepts (user info failed, token cleared) sends the visitor home as well.
 */
export default function UserLayout() {
  const session = useSession((s) => s);
  const anonymous = session.checked && !isLoggedIn(session);
  useEffect(() => {
    if (anonymous) toast.warning(MESSAGES.LOGIN_REQUIRED);
  }, [anonymous]);
  if (anonymous) return <Navigate to={paths.index} replace />;

  const user = session.userInfo;
  const entries = [
    ...getAccountMenuEntries(user, 'compact'),
    { key: 'invoice', label: authTexts.menu.invoice, path: paths['user-invoice'] },
  ];
  return (
    <div className="container user-area">
      <aside className="user-area__side card-surface">
        <div className="user-card">
          <Avatar size={56} icon={<UserOutlined />} />
          <strong>{user ? displayName(user) : shellTexts.loadingPage}</strong>
          <span className="user-card__bindings">
            {authTexts.phone}
            {user?.phoneNumber ? authTexts.bound : authTexts.notBound} · {authTexts.wechat}
            {user?.wxOpenId ? authTexts.bound : authTexts.notBound}
          </span>
        </div>
        <nav className="user-menu" aria-label={shellTexts.userCenter}>
          {entries.map((entry) => (
            <NavLink
              key={entry.key}
              to={entry.path ?? paths.user}
              className={({ isActive }) => (isActive ? 'user-menu__item is-active' : 'user-menu__item')}
            >
              {icons[entry.key]}
              <span>{entry.label}</span>
            </NavLink>
          ))}
        </nav>
      </aside>
      <section className="user-area__main">
        <Outlet />
      </section>
    </div>
  );
}
