import { md5Hex } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { clearSession, sessionStore } from '../stores/session-store';

/** POST /resetPassword {phoneNumber, checkCode, passWord}: sets a new password (every session ends). */
export function resetPassword(phoneNumber: string, checkCode: string, password: string) {
  return request<null>('/resetPassword', { data: { phoneNumber, checkCode, passWord: md5Hex(password) } });
}

/** Sets a new password; this browser's session ends too when it belonged to the same account. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { phoneNumber: string; checkCode: string; password: string }) =>
      unwrap(resetPassword(input.phoneNumber, input.checkCode, input.password)),
    onSuccess: (_data, input) => {
      if (sessionStore.getState().userInfo?.phoneNumber === input.phoneNumber) clearSession();
    },
  });
}
