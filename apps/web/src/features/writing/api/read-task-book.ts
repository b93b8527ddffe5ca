import type { DataOf, writingApi } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/** POST /aiWriting/recognitionFile (multipart): a task book's text, for the requirements field. */
export function readTaskBook(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return request<DataOf<typeof writingApi.recognitionFile>>('/aiWriting/recognitionFile', {
    data: form,
    timeout: 60_000,
  });
}

export function useReadTaskBook() {
  return useMutation({ mutationFn: (file: File) => unwrap(readTaskBook(file)) });
}
