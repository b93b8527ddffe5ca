import { md5Hex } from '@kyfw/contracts';
import { request } from '../../../lib/request';
import type { UserInfo } from '../types';

export interface BindPhoneInput {
  phoneNumber: string;
  checkCode: string;
  /** Plain password; empty sets no password (decision 0005) and is sent as ''. */
  password: string;
  major: string;
  education: string;
}

/** POST /websiteUser/bindPhoneNumber: the password as MD5 hex, or '' for none. */
export function bindPhoneNumber({ phoneNumber, checkCode, password, major, education }: BindPhoneInput) {
  return request<UserInfo>('/websiteUser/bindPhoneNumber', {
    data: { phoneNumber, checkCode, passWord: password ? md5Hex(password) : '', major, education },
  });
}
