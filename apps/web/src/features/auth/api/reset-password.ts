import { md5Hex } from '@kyfw/contracts';
import { request } from '../../../lib/request';

/** POST /resetPassword {phoneNumber, checkCode, passWord}: sets a new password (every session ends). */
export function resetPassword(phoneNumber: string, checkCode: string, password: string) {
  return request<null>('/resetPassword', { data: { phoneNumber, checkCode, passWord: md5Hex(password) } });
}
