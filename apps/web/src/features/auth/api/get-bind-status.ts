import { request } from '../../../lib/request';
import type { UserInfo } from '../types';

/**
 * POST /getUserInfo {userId}: one poll of the WeChat binding (spec §4). `{ wxOpenId: null }` while
 * waiting, the user info (with wxOpenId) once bound. Silent: the caller decides what to show.
 */
export function getBindStatus(userId: string) {
  return request<Partial<UserInfo> | null>('/getUserInfo', { data: { userId }, silent: true });
}
