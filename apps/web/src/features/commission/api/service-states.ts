import type { CommissionService, CommissionServiceState } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { commissionKeys } from './keys';

/** POST /commission/services: which services take requests now (silent: shown as 暂停受理). */
export function getServiceStates() {
  return request<CommissionServiceState[]>('/commission/services', { data: {}, silent: true });
}

export function useServiceStates() {
  return useQuery({ queryKey: commissionKeys.services, queryFn: () => unwrap(getServiceStates()) });
}

/**
 * Whether `service` is paused (its goods unlisted): true only once the server said so — while it
 * loads, or if it cannot be asked, the form shows and the submit's own check stands.
 */
export function useIsServicePaused(service: CommissionService): boolean {
  const { data } = useServiceStates();
  return data?.some((s) => s.service === service && !s.available) === true;
}
