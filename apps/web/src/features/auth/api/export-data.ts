import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';

/** POST /websiteUser/exportData: the account's data as a JSON file (blob + file name). */
export function exportMyData() {
  return request('/websiteUser/exportData', { responseType: 'blob' });
}

/** Downloads the account's data and saves it (我的数据.json when the answer names no file). */
export function useExportMyData() {
  return useMutation({
    mutationFn: async () => {
      const file = await unwrap(exportMyData());
      saveFile(file.blob, file.filename ?? '我的数据.json');
    },
  });
}
