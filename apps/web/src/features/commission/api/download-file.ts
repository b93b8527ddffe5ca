import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';

/** POST /commission/download: a delivered report (or an attachment) of the user's commission. */
export function downloadCommissionFile(commissionId: string, fileId: string) {
  return request('/commission/download', {
    data: { commissionId, fileId },
    responseType: 'blob',
    timeout: 120_000,
  });
}

/** Downloads and saves; `variables.fileId` tells which one is on its way. */
export function useDownloadCommissionFile() {
  return useMutation({
    mutationFn: async (v: { commissionId: string; fileId: string; fileName: string }) => {
      const file = await unwrap(downloadCommissionFile(v.commissionId, v.fileId));
      saveFile(file.blob, file.filename ?? v.fileName);
    },
  });
}
