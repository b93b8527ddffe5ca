/**
 * The logged-in user as /getUserInfo returns it (spec §3; docs/api/accounts.md `UserInfo`). Only
 * id, phoneNumber and wxOpenId are fixed by the spec; the accounts API adds the profile fields.
 */
export interface UserInfo {
  id: string | number;
  /** Present when a phone number is bound; gates the change-password entry (spec §6). */
  phoneNumber?: string | null;
  /** Its presence marks a WeChat binding (spec §3); masked by the server. */
  wxOpenId?: string | null;
  /** False: a phone bound without a password (decision 0005). */
  hasPassword?: boolean;
  realName?: string | null;
  unitName?: string | null;
  gender?: Gender | null;
  major?: string | null;
  education?: string | null;
  createdAt?: string;
  lastLoginAt?: string | null;
  entitlements?: Entitlement[];
  /** True when the phone or WeChat already earned the free services on an earlier account: this one has none. */
  entitlementsEarnedBefore?: boolean;
  nickName?: string | null;
  avatar?: string | null;
  [field: string]: unknown;
}

export type Gender = 'male' | 'female';

export type EntitlementKind = 'free_check' | 'free_aigc_detection' | 'ai_writing_trial';

/** A free service the account got at registration (or its first binding). */
export interface Entitlement {
  kind: EntitlementKind | string;
  grantedBy: 'phone_bind' | 'wechat_bind' | 'phone_register' | 'wechat_register' | string;
  grantedAt: string;
  usedAt: string | null;
  /** Usable now: unused, and its service exists. */
  available: boolean;
  /** Its service does not exist yet: shown as 即将开放. */
  comingSoon?: boolean;
}

/** `data` of /qrCode, /weixin/wx/getBindingRCode and /websiteUser/deleteAccountRCode. */
export interface QrCode {
  /** The platform ticket (spec §3). */
  ticket: string;
  /** The QR session id to poll with (not a user id). */
  userId: string;
  /** The QR image; absent from older servers: built from the ticket then. */
  qrUrl?: string;
  expireSeconds?: number;
  /** True with the sandbox WeChat platform: offer 模拟扫码. */
  sandbox?: boolean;
}

/** `type` of /sendCheckCode: 1 register, 2 bind phone, 3 reset password, 4 account deletion. */
export type SmsPurpose = '1' | '2' | '3' | '4';
