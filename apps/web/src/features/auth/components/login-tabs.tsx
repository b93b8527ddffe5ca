import type { LoginType } from '@kyfw/contracts';
import { Tabs } from 'antd';
import { uiActions, useUiStore } from '../../../stores/ui-store';
import { authTexts } from '../texts';
import { AccountLoginPanel } from './account-login-panel';
import { WxLoginPanel } from './wx-login-panel';

export interface LoginTabsProps {
  /** False while the surrounding dialog is closed: the WeChat panel must not poll then. */
  visible: boolean;
  onSuccess: () => void;
}

/**
 * The two login tabs, 微信登录 ('wx') and 账号密码登录 ('account'). The chosen tab is the store's
 * loginType, remembered in local storage (spec §2).
 */
export function LoginTabs({ visible, onSuccess }: LoginTabsProps) {
  const loginType = useUiStore((s) => s.loginType);
  return (
    <Tabs
      className="login-tabs"
      activeKey={loginType}
      onChange={(key) => uiActions.setLoginType(key as LoginType)}
      centered
      destroyOnHidden
      items={[
        {
          key: 'wx',
          label: authTexts.tabWx,
          children: <WxLoginPanel active={visible && loginType === 'wx'} onSuccess={onSuccess} />,
        },
        {
          key: 'account',
          label: authTexts.tabAccount,
          children: <AccountLoginPanel onSuccess={onSuccess} />,
        },
      ]}
    />
  );
}
