import type { Entitlement } from './entitlements.repo.ts';
import { toEntitlementView } from './entitlements.service.ts';

/** The account fields the wire shows (a UserRecord or an AccountUser). */
export interface UserInfoSource {
  id: string;
  phoneNumber: string | null;
  wxOpenId: string | null;
  realName: string | null;
  unitName: string | null;
  gender: 'male' | 'female' | null;
  major: string | null;
  education: string | null;
  createdAt: Date;
  lastLoginAt: Date;
}

/**
 * A WeChat openid shown to its own account: enough to recognise, never the whole identifier
 * (`o6_b****Qx2E`). Its presence marks the binding (spec §3).
 */
export function maskOpenId(openId: string): string {
  if (openId.length <= 8) return '****';
  return `${openId.slice(0, 4)}****${openId.slice(-4)}`;
}

/**
 * `data` of /getUserInfo and /websiteUser/userInfo: the caller's own account. phoneNumber is the
 * full number (it is the user's own, and the web decides on it whether to show 修改密码).
 */
export function toUserInfo(
  user: UserInfoSource & { hasPassword: boolean },
  entitlements: readonly Entitlement[],
  options: { entitlementsEarnedBefore?: boolean } = {},
) {
  return {
    id: user.id,
    phoneNumber: user.phoneNumber,
    wxOpenId: user.wxOpenId ? maskOpenId(user.wxOpenId) : null,
    hasPassword: user.hasPassword,
    realName: user.realName,
    unitName: user.unitName,
    gender: user.gender,
    major: user.major,
    education: user.education,
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: user.lastLoginAt.toISOString(),
    entitlements: entitlements.map(toEntitlementView),
    /**
     * True when the account has no free services and its phone or WeChat already earned them on an
     * earlier (deleted or closed) account: binding gives none (once per phone and per WeChat).
     */
    entitlementsEarnedBefore: options.entitlementsEarnedBefore ?? false,
  };
}

export type UserInfo = ReturnType<typeof toUserInfo>;
