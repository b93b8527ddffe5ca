import type { AiBudget, aiUsageAdminApi } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/** The path of aiUsageAdminApi.budget, written out so no zod enters the page. */
const PATH = '/admin/llm/budget' as const satisfies (typeof aiUsageAdminApi)['budget']['path'];

/** Today's AI tokens and cost against the daily budget, top accounts, tasks, 7 days, the limits. */
export function useAiBudget() {
  return useQuery({
    queryKey: ['console', 'aiBudget'] as const,
    queryFn: () => unwrap(request<AiBudget>(PATH, { data: {} })),
    refetchInterval: 60_000,
  });
}
