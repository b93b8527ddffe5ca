import { md5Hex } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { completeLogin } from '../lib/complete-login';

/** POST /login {phoneNumber, passWord}: the password travels as its MD5 hex (spec §7). */
export function loginByPassword(phoneNumber: string, password: string) {
  return request<{ token: string }>('/login', { data: { phoneNumber, passWord: md5Hex(password) } });
}

/**
 * Logs in with phone and password, then completes the login (token, user info 1 s later, 欢迎登录！).
 * `data` is whether the user is logged in now; pending through both steps.
 */
export function useLoginByPassword() {
  return useMutation({
    mutationFn: async ({ phoneNumber, password }: { phoneNumber: string; password: string }) => {
      const { token } = await unwrap(loginByPassword(phoneNumber, password));
      return completeLogin(token);
    },
  });
}
