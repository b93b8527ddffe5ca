import { md5Hex } from '@kyfw/contracts';
import { request } from '../../../lib/request';

/** POST /addUserByPhone {phoneNumber, checkCode, passWord}: registers and logs in (`data.token`). */
export function registerByPhone(phoneNumber: string, checkCode: string, password: string) {
  return request<{ token: string }>('/addUserByPhone', {
    data: { phoneNumber, checkCode, passWord: md5Hex(password) },
  });
}
