/**
 * The one request layer of spec §7.
 *
 * - Default method POST; GET sends `data` as the query, other methods as a JSON body
 *   (FormData/Blob/URLSearchParams bodies are sent as they are, for uploads).
 * - Base URL from public configuration (default same origin `/kyfw/web/v1`); 30 s timeout.
 * - Headers `token` (cookie, '' when absent) and `terminal: PC` on every request.
 * - Success when the envelope's `code === 0`, or when a blob is expected (an error envelope sent
 *   instead of a file still counts as an error). Otherwise the message is shown as an error toast
 *   unless `silent`, and an error is returned.
 * - Network exceptions (no response, timeout, abort) are returned as errors without a toast.
 * - Idempotent methods are retried once on 408/409/425/429/500/502/503/504.
 * - The result is a tuple `[error, data]`: exactly one of the two is set.
 */
import type { Envelope } from '@kyfw/contracts';
import {
  ErrorMessage,
  REQUEST_HEADERS,
  REQUEST_TIMEOUT_MS,
  RETRY_LIMIT,
  RETRY_STATUSES,
  TERMINAL,
} from '@kyfw/contracts';
import { getPublicConfig } from '../config/env';
import { toast } from '../stores/ui-store';
import { getToken } from './token';

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  /** Default POST. */
  method?: HttpMethod;
  /** GET/HEAD: sent as the query string. Other methods: the JSON body (FormData/Blob sent as is). */
  data?: unknown;
  /** Extra query parameters for any method. */
  params?: QueryParams;
  headers?: Record<string, string>;
  /** 'json' (default): the envelope's data. 'blob': the file and its name. */
  responseType?: 'json' | 'blob';
  /** Suppresses the error toast. */
  silent?: boolean;
  /** Milliseconds per attempt; default 30 000. */
  timeout?: number;
  /** Overrides the configured base URL. */
  baseURL?: string;
  signal?: AbortSignal;
}

export type RequestErrorKind = 'business' | 'http' | 'network' | 'timeout' | 'aborted' | 'parse';

/** What a failed request returns. `code` is the envelope code for business errors. */
export class RequestError extends Error {
  override readonly name = 'RequestError';
  readonly kind: RequestErrorKind;
  readonly code: number | null;
  readonly status: number | null;

  constructor(
    message: string,
    kind: RequestErrorKind,
    code: number | null = null,
    status: number | null = null,
  ) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.status = status;
  }
}

export interface BlobResponse {
  blob: Blob;
  /** From Content-Disposition (RFC 5987 `filename*` preferred); null when absent. */
  filename: string | null;
}

export type RequestResult<T> = [RequestError, undefined] | [null, T];

const IDEMPOTENT = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRY_STATUS_SET = new Set<number>(RETRY_STATUSES);
/** Pause before the single retry, so a briefly overloaded server gets a breath. */
const RETRY_DELAY_MS = 300;

const TEXT = {
  network: '网络连接异常，请检查网络后重试',
  timeout: '请求超时，请稍后重试',
  aborted: '请求已取消',
  parse: '服务器返回了无法识别的内容，请稍后重试',
  http: (status: number) => `服务暂时不可用（${status}），请稍后重试`,
  fallback: '请求失败，请稍后重试',
};

export function request<T = unknown>(
  url: string,
  options?: RequestOptions & { responseType?: 'json' },
): Promise<RequestResult<T>>;
export function request(
  url: string,
  options: RequestOptions & { responseType: 'blob' },
): Promise<RequestResult<BlobResponse>>;
export async function request(url: string, options: RequestOptions = {}): Promise<RequestResult<unknown>> {
  const method = options.method ?? 'POST';
  // Read the token synchronously, before any await: a logout that clears the cookie right after
  // starting a request must not change what this request sends.
  const headers = new Headers(options.headers);
  headers.set(REQUEST_HEADERS.token, getToken());
  headers.set(REQUEST_HEADERS.terminal, TERMINAL);

  const sendsQuery = method === 'GET' || method === 'HEAD';
  const fullUrl = buildUrl(options.baseURL ?? getPublicConfig().apiBase, url, {
    ...options.params,
    ...(sendsQuery ? toQuery(options.data) : {}),
  });
  let body: BodyInit | undefined;
  if (!sendsQuery && options.data !== undefined) {
    if (isRawBody(options.data)) {
      body = options.data;
    } else {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.data);
    }
  }
  if (options.responseType !== 'blob' && !headers.has('Accept')) headers.set('Accept', 'application/json');

  const timeout = options.timeout ?? REQUEST_TIMEOUT_MS;
  let response: Response | undefined;
  for (let attempt = 0; ; attempt += 1) {
    const sent = await send(fullUrl, { method, headers, body }, timeout, options.signal);
    if (sent instanceof RequestError) return [sent, undefined];
    response = sent;
    const retry = IDEMPOTENT.has(method) && RETRY_STATUS_SET.has(response.status) && attempt < RETRY_LIMIT;
    if (!retry) break;
    await delay(RETRY_DELAY_MS);
  }
  return interpret(response, options);
}

async function send(
  url: string,
  init: RequestInit,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<Response | RequestError> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fetch(url, { ...init, signal: controller.signal, credentials: 'same-origin' });
  } catch {
    if (timedOut) return new RequestError(TEXT.timeout, 'timeout');
    if (signal?.aborted) return new RequestError(TEXT.aborted, 'aborted');
    return new RequestError(TEXT.network, 'network');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function interpret(response: Response, options: RequestOptions): Promise<RequestResult<unknown>> {
  const silent = options.silent === true;
  const isJson = (response.headers.get('Content-Type') ?? '').includes('json');

  if (options.responseType === 'blob' && response.ok) {
    const blob = await readBlob(response);
    if (blob instanceof RequestError) return [blob, undefined];
    if (isJson) {
      // An error envelope sent instead of the file.
      const envelope = asEnvelope(safeParse(await blob.text()));
      if (envelope && envelope.code !== 0) return fail(businessError(envelope, response.status), silent);
    }
    return [null, { blob, filename: filenameFromDisposition(response.headers.get('Content-Disposition')) }];
  }

  let text: string;
  try {
    text = await response.text();
  } catch {
    return [new RequestError(TEXT.network, 'network', null, response.status), undefined];
  }
  const envelope = asEnvelope(safeParse(text));
  if (!envelope) {
    const error = response.ok
      ? new RequestError(TEXT.parse, 'parse', null, response.status)
      : new RequestError(TEXT.http(response.status), 'http', null, response.status);
    return fail(error, silent);
  }
  if (envelope.code !== 0) return fail(businessError(envelope, response.status), silent);
  return [null, envelope.data];
}

function fail(error: RequestError, silent: boolean): [RequestError, undefined] {
  if (!silent) toast.error(error.message);
  return [error, undefined];
}

function businessError(envelope: Envelope, status: number): RequestError {
  const message = envelope.message || ErrorMessage[envelope.code] || TEXT.fallback;
  return new RequestError(message, 'business', envelope.code, status);
}

async function readBlob(response: Response): Promise<Blob | RequestError> {
  try {
    return await response.blob();
  } catch {
    return new RequestError(TEXT.network, 'network', null, response.status);
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asEnvelope(value: unknown): Envelope | null {
  if (typeof value !== 'object' || value === null) return null;
  const code = (value as { code?: unknown }).code;
  if (typeof code !== 'number') return null;
  const message = (value as { message?: unknown }).message;
  return {
    code,
    message: typeof message === 'string' ? message : '',
    data: (value as { data?: unknown }).data,
  };
}

function isRawBody(data: unknown): data is BodyInit {
  return (
    (typeof FormData !== 'undefined' && data instanceof FormData) ||
    (typeof Blob !== 'undefined' && data instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && data instanceof URLSearchParams) ||
    data instanceof ArrayBuffer
  );
}

function toQuery(data: unknown): QueryParams {
  if (typeof data !== 'object' || data === null) return {};
  return data as QueryParams;
}

function buildUrl(base: string, url: string, query: QueryParams): string {
  const absolute = /^https?:\/\//i.test(url) || url.startsWith('//');
  let full = absolute ? url : `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null) search.append(key, String(v));
  }
  const qs = search.toString();
  if (qs) full += (full.includes('?') ? '&' : '?') + qs;
  return full;
}

/**
 * The file name of a Content-Disposition header: RFC 5987/6266 `filename*=charset''pct-encoded`
 * wins over the plain `filename=`.
 */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const value = extended[1].trim().replace(/^"(.*)"$/, '$1');
    const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
    const encoded = match ? match[2] : value;
    try {
      const charset = (match?.[1] ?? 'utf-8').toLowerCase();
      if (charset === 'iso-8859-1') {
        return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
          String.fromCharCode(Number.parseInt(hex, 16)),
        );
      }
      return decodeURIComponent(encoded);
    } catch {
      // malformed percent-encoding: fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  const raw = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
  return raw || null;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
