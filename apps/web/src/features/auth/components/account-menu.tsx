import {
  CreditCardOutlined,
  DownOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LockOutlined,
  LogoutOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Avatar, Dropdown } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useLogout } from '../hooks/use-logout';
import { useSession } from '../stores/session-store';
import { authTexts, maskPhone } from '../texts';
import type { UserInfo } from '../types';
import { getAccountMenuEntries } from './account-menu-items';

const icons: Record<string, ReactNode> = {
  orders: <FileTextOutlined />,
  paymentRecords: <CreditCardOutlined />,
  info: <IdcardOutlined />,
  password: <LockOutlined />,
  address: <EnvironmentOutlined />,
  logout: <LogoutOutlined />,
};

export function displayName(user: UserInfo | null): string {
  if (!user) return '';
  if (user.phoneNumber) return maskPhone(user.phoneNumber);
  return authTexts.weChatUser;
}

/** The header account menu (full mode: with 退出登录). */
export function AccountMenu() {
  const user = useSession((s) => s.userInfo);
  const navigate = useNavigate();
  const logout = useLogout();
  const items: MenuProps['items'] = getAccountMenuEntries(user, 'full').map((entry) => ({
    key: entry.key,
    label: entry.label,
    icon: icons[entry.key],
    danger: entry.key === 'logout',
  }));
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') {
      logout();
      return;
    }
    const entry = getAccountMenuEntries(user, 'full').find((e) => e.key === key);
    if (entry?.path) navigate(entry.path);
  };
  return (
    <Dropdown menu={{ items, onClick }} placement="bottomRight" trigger={['hover', 'click']}>
      <button type="button" className="account-trigger" aria-label={authTexts.menu.info}>
        <Avatar size={32} icon={<UserOutlined />} className="account-trigger__avatar" />
        <span className="account-trigger__name">{displayName(user)}</span>
        <DownOutlined className="account-trigger__caret" />
      </button>
    </Dropdown>
  );
}
