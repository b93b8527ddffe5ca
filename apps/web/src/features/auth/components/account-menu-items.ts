import { paths } from '../../../config/paths';
import { authTexts } from '../texts';
import type { UserInfo } from '../types';

export type AccountMenuMode = 'full' | 'compact';

export interface AccountMenuEntry {
  key: string;
  label: string;
  /** Target route; absent for the logout action. */
  path?: string;
}

/**
 * The account menu of spec §2, in order: 我的订单, 支付记录, 个人信息, 修改密码 (only with a bound
 * phone number), 收货地址, 退出登录 (left out in the compact mode).
 */
export function getAccountMenuEntries(
  user: UserInfo | null,
  mode: AccountMenuMode = 'full',
): AccountMenuEntry[] {
  const entries: AccountMenuEntry[] = [
    { key: 'orders', label: authTexts.menu.orders, path: paths['user-order-write'] },
    { key: 'paymentRecords', label: authTexts.menu.paymentRecords, path: paths['user-paymentRecords'] },
    { key: 'info', label: authTexts.menu.info, path: paths['user-info'] },
  ];
  if (user?.phoneNumber)
    entries.push({ key: 'password', label: authTexts.menu.password, path: paths['user-password'] });
  entries.push({ key: 'address', label: authTexts.menu.address, path: paths['user-address'] });
  if (mode === 'full') entries.push({ key: 'logout', label: authTexts.menu.logout });
  return entries;
}
