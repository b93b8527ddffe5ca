import { request } from '../../../lib/request';

/** POST /user/logout: revokes the session on the server. Silent: the local logout happens anyway. */
export function logoutRequest() {
  return request<null>('/user/logout', { silent: true });
}
