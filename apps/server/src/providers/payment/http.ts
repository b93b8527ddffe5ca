import type { PayChannel } from './payment.types.ts';
import { PaymentProviderError } from './payment.types.ts';

/** The `fetch` the adapters and the sandbox notifier use; injectable (tests, inject-based transports). */
export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What every adapter takes besides its configuration. */
export interface ProviderRuntime {
  /** Defaults to the global fetch. */
  fetch?: FetchFn;
  /** Clock in ms since the epoch; defaults to Date.now. Used for timestamps and freshness checks. */
  now?: () => number;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Sends one request and reads the whole answer as text. Network errors and timeouts become
 * PaymentProviderError UNAVAILABLE with a message that names the operation only (no URL query,
 * no headers: the Authorization header carries a signature).
 */
export async function sendHttp(
  channel: PayChannel,
  operation: string,
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (cause) {
    const reason = cause instanceof Error && cause.name === 'TimeoutError' ? 'timed out' : 'network error';
    throw new PaymentProviderError(channel, 'UNAVAILABLE', `${operation}: ${reason}`, {
      cause: safeCause(cause),
    });
  }
  let text: string;
  try {
    const buffer = Buffer.from(await response.arrayBuffer());
    if (buffer.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
    text = buffer.toString('utf8');
  } catch (cause) {
    throw new PaymentProviderError(channel, 'UNAVAILABLE', `${operation}: answer could not be read`, {
      httpStatus: response.status,
      cause: safeCause(cause),
    });
  }
  return { status: response.status, headers: response.headers, text };
}

/** Keeps the error's name and message only (fetch errors may carry the request in their cause chain). */
function safeCause(cause: unknown): Error {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
    return new Error(`${cause.name}: ${cause.message}${inner}`);
  }
  return new Error(String(cause));
}

/** Joins a configured base URL (which may carry a path prefix) with an API path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** Whether `url` is an absolute http(s) URL. */
export function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
