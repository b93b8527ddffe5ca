import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { QrCode } from '../types';

/** POST /websiteUser/deleteAccount {checkCode}: deletes the account confirmed by an SMS code (type '4'). */
export function deleteAccountBySms(checkCode: string) {
  return request<{ deleted: boolean }>('/websiteUser/deleteAccount', { data: { checkCode } });
}

/** POST /websiteUser/deleteAccountRCode: a QR the account's own WeChat scans to confirm deletion. */
export function getDeleteAccountQrCode() {
  return request<QrCode>('/websiteUser/deleteAccountRCode');
}

/** POST /websiteUser/deleteAccount {userId}: one poll; `deleted: true` once confirmed. Silent. */
export function pollDeleteAccount(userId: string) {
  return request<{ deleted: boolean }>('/websiteUser/deleteAccount', { data: { userId }, silent: true });
}

/** Deletes the account confirmed by an SMS code. */
export function useDeleteAccountBySms() {
  return useMutation({
    mutationFn: (checkCode: string) => unwrap(deleteAccountBySms(checkCode)),
  });
}
