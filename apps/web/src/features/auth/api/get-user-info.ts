import { request } from '../../../lib/request';
import type { UserInfo } from '../types';

/**
 * POST /getUserInfo with the token header (spec §7). Silent: a stale token on start must not
 * greet the visitor with an error; the caller clears the token on error (spec §4).
 */
export function getUserInfo() {
  return request<UserInfo>('/getUserInfo', { silent: true });
}
