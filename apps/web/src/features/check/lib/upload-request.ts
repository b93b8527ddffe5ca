/**
 * Multipart upload with upload progress. The request layer uses fetch, which reports no upload
 * progress, so the paper goes through XMLHttpRequest here — with the same contract as `request`:
 * the headers token + terminal, the envelope (`code === 0` is success, otherwise the message as an
 * error toast unless silent), network errors returned without a toast, `[error, data]`.
 */
import type { Envelope } from '@kyfw/contracts';
import { ErrorMessage, REQUEST_HEADERS, TERMINAL } from '@kyfw/contracts';
import { getPublicConfig } from '../../../config/env';
import { RequestError, type RequestResult } from '../../../lib/request';
import { getToken } from '../../../lib/token';
import { toast } from '../../../stores/ui-store';

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100 */
  percent: number;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** All bytes are sent; the server is parsing now. */
  onSent?: () => void;
  signal?: AbortSignal;
  silent?: boolean;
  /**
   * Milliseconds for the whole exchange. Default 5 minutes: a 30 MB thesis over a slow line plus
   * the server's parsing (up to a minute) outlasts the 30 s of ordinary requests.
   */
  timeout?: number;
}

const TEXT = {
  network: '网络连接异常，请检查网络后重试',
  timeout: '上传超时，请检查网络后重试',
  aborted: '上传已取消',
  parse: '服务器返回了无法识别的内容，请稍后重试',
  http: (status: number) => `服务暂时不可用（${status}），请稍后重试`,
  fallback: '上传失败，请稍后重试',
};

export const UPLOAD_TIMEOUT_MS = 5 * 60_000;

function joinUrl(base: string, url: string): string {
  return `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

function asEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { code, message, data } = value as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code !== 'number') return null;
    return { code, message: typeof message === 'string' ? message : '', data };
  } catch {
    return null;
  }
}

export function uploadForm<T>(
  url: string,
  form: FormData,
  options: UploadOptions = {},
): Promise<RequestResult<T>> {
  const silent = options.silent === true;
  const fail = (error: RequestError, toastIt: boolean): RequestResult<T> => {
    if (toastIt && !silent) toast.error(error.message);
    return [error, undefined];
  };
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve(fail(new RequestError(TEXT.aborted, 'aborted'), false));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', joinUrl(getPublicConfig().apiBase, url));
    // Read synchronously, like `request`: a logout right after must not change this request.
    xhr.setRequestHeader(REQUEST_HEADERS.token, getToken());
    xhr.setRequestHeader(REQUEST_HEADERS.terminal, TERMINAL);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.timeout = options.timeout ?? UPLOAD_TIMEOUT_MS;
    xhr.withCredentials = false;

    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      const percent = event.total > 0 ? Math.min(100, Math.floor((event.loaded / event.total) * 100)) : 0;
      options.onProgress?.({ loaded: event.loaded, total: event.total, percent });
    };
    xhr.upload.onload = () => options.onSent?.();

    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (result: RequestResult<T>) => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };

    xhr.onload = () => {
      const envelope = asEnvelope(xhr.responseText);
      if (!envelope) {
        const error =
          xhr.status >= 200 && xhr.status < 300
            ? new RequestError(TEXT.parse, 'parse', null, xhr.status)
            : new RequestError(TEXT.http(xhr.status), 'http', null, xhr.status);
        done(fail(error, true));
        return;
      }
      if (envelope.code !== 0) {
        const message = envelope.message || ErrorMessage[envelope.code] || TEXT.fallback;
        done(fail(new RequestError(message, 'business', envelope.code, xhr.status), true));
        return;
      }
      done([null, envelope.data as T]);
    };
    xhr.onerror = () => done(fail(new RequestError(TEXT.network, 'network'), false));
    xhr.ontimeout = () => done(fail(new RequestError(TEXT.timeout, 'timeout'), false));
    xhr.onabort = () => done(fail(new RequestError(TEXT.aborted, 'aborted'), false));
    xhr.send(form);
  });
}
