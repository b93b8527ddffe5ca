import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { Proof } from '../types';

/** POST /payment/offline/proof (multipart: orderId, file): the transfer proof for an operator. */
export function uploadOfflineProof(orderId: string, file: File) {
  const form = new FormData();
  form.append('orderId', orderId);
  form.append('file', file, file.name);
  return request<Proof>('/payment/offline/proof', { data: form, timeout: 120_000 });
}

/** Uploads the transfer proof of an order (variables: order id and file); `isSuccess` once it is in. */
export function useUploadOfflineProof() {
  return useMutation({
    mutationFn: ({ orderId, file }: { orderId: string; file: File }) =>
      unwrap(uploadOfflineProof(orderId, file)),
  });
}
