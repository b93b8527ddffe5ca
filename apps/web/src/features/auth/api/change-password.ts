import { md5Hex } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/** POST /websiteUser/passwordChange {oldPassWord, passWord} (both MD5); other sessions end. */
export function changePassword(oldPassword: string, newPassword: string) {
  return request<null>('/websiteUser/passwordChange', {
    data: { oldPassWord: md5Hex(oldPassword), passWord: md5Hex(newPassword) },
  });
}

/** Changes the password (this session stays, every other one ends). */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      unwrap(changePassword(oldPassword, newPassword)),
  });
}
