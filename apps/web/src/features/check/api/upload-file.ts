import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { type UploadOptions, uploadForm } from '../lib/upload-request';
import type { UploadResult } from '../types';
import { checkKeys, uploadMutationKey } from './keys';

export interface UploadFileInput {
  file: File;
  title: string;
  author: string;
  goodsId: string;
  /** The user's opt-in to the comparison library (default off). */
  addToLibrary: boolean;
  /** 同时检测AIGC: AIGC detection ordered with this similarity check (default off). */
  aigcAddon?: boolean;
}

/** POST /freeCheck/uploadFile (multipart): parses the paper, counts its characters and prices it. */
export function uploadFile(input: UploadFileInput, options?: UploadOptions) {
  const form = new FormData();
  form.append('title', input.title);
  form.append('author', input.author);
  form.append('goodsId', input.goodsId);
  form.append('addToLibrary', input.addToLibrary ? 'true' : 'false');
  form.append('aigcAddon', input.aigcAddon ? 'true' : 'false');
  form.append('file', input.file, input.file.name);
  return uploadForm<UploadResult>('/freeCheck/uploadFile', form, options);
}

/**
 * Uploads the paper (variables: the input and the progress callbacks); the check list refreshes.
 */
export function useUploadFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: uploadMutationKey,
    mutationFn: ({ input, options }: { input: UploadFileInput; options?: UploadOptions }) =>
      unwrap(uploadFile(input, options)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: checkKeys.lists });
    },
  });
}

/** Whether a paper is on its way anywhere on the page (the product cards lock meanwhile). */
export function useUploadInProgress(): boolean {
  return useIsMutating({ mutationKey: uploadMutationKey }) > 0;
}
