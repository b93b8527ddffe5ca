import { type UploadOptions, uploadForm } from '../lib/upload-request';
import type { UploadResult } from '../types';

export interface UploadFileInput {
  file: File;
  title: string;
  author: string;
  goodsId: string;
  /** The user's opt-in to the comparison library (default off). */
  addToLibrary: boolean;
}

/** POST /freeCheck/uploadFile (multipart): parses the paper, counts its characters and prices it. */
export function uploadFile(input: UploadFileInput, options?: UploadOptions) {
  const form = new FormData();
  form.append('title', input.title);
  form.append('author', input.author);
  form.append('goodsId', input.goodsId);
  form.append('addToLibrary', input.addToLibrary ? 'true' : 'false');
  form.append('file', input.file, input.file.name);
  return uploadForm<UploadResult>('/freeCheck/uploadFile', form, options);
}
