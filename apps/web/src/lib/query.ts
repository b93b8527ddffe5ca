/**
 * TanStack Query glue for the request layer. `request()` answers `[error, data]` (and has already
 * shown the error toast unless silent); a query or mutation function must throw instead, so that
 * `isError`, `error` and the mutation's `onError` see the failure.
 */
import type { RequestResult } from './request';

export async function unwrap<T>(result: Promise<RequestResult<T>>): Promise<T> {
  const [error, data] = await result;
  if (error) throw error;
  return data as T;
}
