/** The wire envelope of spec §7: every API answer is HTTP 200 with `{code, message, data}`; `code === 0` is success. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** The API prefix every endpoint lives under (spec §7). */
export const API_PREFIX = '/kyfw/web/v1';

/** Builds a success envelope. */
export function ok<T>(data: T, message = 'success'): Envelope<T> {
  return { code: 0, message, data };
}

/** Builds an error envelope; `data` is always null on errors. */
export function fail(code: number, message: string): Envelope<null> {
  return { code, message, data: null };
}

/** Type guard for a success envelope. */
export function isOk<T>(env: Envelope<T>): boolean {
  return env.code === 0;
}
