/**
 * The logged-in user as /getUserInfo returns it (spec §3). Only id, phoneNumber and wxOpenId are
 * fixed by the spec; the accounts issue adds the profile fields.
 */
export interface UserInfo {
  id: string | number;
  /** Present when a phone number is bound; gates the change-password entry (spec §6). */
  phoneNumber?: string | null;
  /** Its presence marks a WeChat binding (spec §3). */
  wxOpenId?: string | null;
  nickName?: string | null;
  avatar?: string | null;
  [field: string]: unknown;
}
