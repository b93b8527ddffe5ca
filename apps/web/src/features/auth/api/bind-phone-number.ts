import { AFTER_LOGIN_DELAY_MS, md5Hex } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { delay } from '../lib/complete-login';
import { loadUserInfo } from '../stores/session-store';
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

/** Binds the phone; pending until the user info has been reloaded (1 s later, as after a login). */
export function useBindPhoneNumber() {
  return useMutation({
    mutationFn: async (input: BindPhoneInput) => {
      await unwrap(bindPhoneNumber(input));
      await delay(AFTER_LOGIN_DELAY_MS);
      await loadUserInfo();
    },
  });
}
