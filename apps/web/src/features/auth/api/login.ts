import { md5Hex } from '@kyfw/contracts';
import { request } from '../../../lib/request';

/** POST /login {phoneNumber, passWord}: the password travels as its MD5 hex (spec §7). */
export function loginByPassword(phoneNumber: string, password: string) {
  return request<{ token: string }>('/login', { data: { phoneNumber, passWord: md5Hex(password) } });
}
