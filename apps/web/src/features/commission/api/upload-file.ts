import type { CommissionFile } from '@kyfw/contracts';
import { request } from '../../../lib/request';

/** POST /commission/uploadFile (multipart): one attachment, checked by the server as a document. */
export function uploadCommissionFile(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return request<CommissionFile>('/commission/uploadFile', { data: form, timeout: 120_000 });
}
