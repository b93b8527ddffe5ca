import { ErrorCode, STATUS_POLL_INTERVAL_MS } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import type { RequestError } from '../../../lib/request';
import { getCheckStatus } from '../api/get-check-status';
import { checkKeys } from '../api/keys';
import { progressView } from '../lib/progress';

/** Errors after which asking again cannot help: not logged in, no such order. */
const FINAL_CODES = new Set<number>([ErrorCode.UNAUTHORIZED, ErrorCode.RESOURCE_NOT_FOUND]);

export function isFinalStatusError(error: unknown): boolean {
  const code = (error as RequestError | null)?.code;
  return typeof code === 'number' && FINAL_CODES.has(code);
}

/**
 * The check's status from /freeCheck/orderPayStatus, polled every 3 s (spec §9) while the check is
 * queued or running (see progressView), and after a passing network error. It stops when the check
 * is done or failed, while it waits for the user, and after a final error.
 */
export function useCheckStatus(
  orderId: string | null,
  options: { enabled?: boolean; pollIntervalMs?: number } = {},
) {
  const interval = options.pollIntervalMs ?? STATUS_POLL_INTERVAL_MS;
  const query = useQuery({
    queryKey: checkKeys.status(orderId ?? ''),
    queryFn: async ({ signal }) => {
      const [error, data] = await getCheckStatus(orderId ?? '', signal);
      if (error) throw error;
      if (!data) throw new Error('empty status');
      return data;
    },
    enabled: Boolean(orderId) && options.enabled !== false,
    retry: false,
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (q) => {
      if (q.state.status === 'error' && isFinalStatusError(q.state.error)) return false;
      if (q.state.status === 'error') return interval;
      return progressView(q.state.data).poll ? interval : false;
    },
  });
  return { ...query, view: progressView(query.data) };
}
