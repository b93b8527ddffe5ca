import { md5Hex } from '@kyfw/contracts';
import { request } from '../../../lib/request';

/** POST /websiteUser/passwordChange {oldPassWord, passWord} (both MD5); other sessions end. */
export function changePassword(oldPassword: string, newPassword: string) {
  return request<null>('/websiteUser/passwordChange', {
    data: { oldPassWord: md5Hex(oldPassword), passWord: md5Hex(newPassword) },
  });
}
