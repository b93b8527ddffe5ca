import { md5Hex } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { QrCode } from '../types';

/** POST /websiteUser/deleteAccount {checkCode}: deletes the account confirmed by an SMS code (type '4'). */
export function deleteAccountBySms(checkCode: string) {
  return request<{ deleted: boolean }>('/websiteUser/deleteAccount', { data: { checkCode } });
}

/**
 * POST /websiteUser/deleteAccount {passWord}: deletes the account confirmed by the current session
 * plus its password (MD5), for when no SMS code can be had.
 */
export function deleteAccountByPassword(password: string) {
  return request<{ deleted: boolean }>('/websiteUser/deleteAccount', {
    data: { passWord: md5Hex(password) },
  });
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

/** Deletes the account confirmed by its password (no SMS). */
export function useDeleteAccountByPassword() {
  return useMutation({
    mutationFn: (password: string) => unwrap(deleteAccountByPassword(password)),
  });
}
