import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { setUserInfo } from '../stores/session-store';
import type { Gender, UserInfo } from '../types';

export interface ProfileInput {
  realName?: string | null;
  unitName?: string | null;
  gender?: Gender | '' | null;
  major?: string | null;
  education?: string | null;
}

/** POST /websiteUser/updateUserInfo: '' or null clears a field; answers the new user info (保存成功). */
export function updateUserInfo(profile: ProfileInput) {
  return request<UserInfo>('/websiteUser/updateUserInfo', { data: profile });
}

/** Saves the personal data; the session shows the answer's user info. */
export function useUpdateUserInfo() {
  return useMutation({
    mutationFn: (profile: ProfileInput) => unwrap(updateUserInfo(profile)),
    onSuccess: (updated) => setUserInfo(updated),
  });
}
