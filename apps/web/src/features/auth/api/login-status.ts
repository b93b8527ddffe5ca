import { request } from '../../../lib/request';

export interface LoginStatus {
  /** '1' once the QR was scanned and the user is logged in (spec §3). */
  loginStatus: string;
  userInfo: { token: string } | null;
}

/** POST /loginStatus {userId}: one poll of the WeChat login. Silent: the caller decides what to show. */
export function getLoginStatus(userId: string) {
  return request<LoginStatus>('/loginStatus', { data: { userId }, silent: true });
}
