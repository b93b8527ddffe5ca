import { md5Hex } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { completeLogin } from '../lib/complete-login';
import { authTexts } from '../texts';

/** POST /addUserByPhone {phoneNumber, checkCode, passWord}: registers and logs in (`data.token`). */
export function registerByPhone(phoneNumber: string, checkCode: string, password: string) {
  return request<{ token: string }>('/addUserByPhone', {
    data: { phoneNumber, checkCode, passWord: md5Hex(password) },
  });
}

/** Registers and logs in (注册成功 welcome); `data` is whether the user is logged in now. */
export function useRegisterByPhone() {
  return useMutation({
    mutationFn: async (input: { phoneNumber: string; checkCode: string; password: string }) => {
      const { token } = await unwrap(registerByPhone(input.phoneNumber, input.checkCode, input.password));
      return completeLogin(token, authTexts.registerWelcome);
    },
  });
}
