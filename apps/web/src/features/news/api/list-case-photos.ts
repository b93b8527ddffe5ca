import type { CasePhoto } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { newsKeys } from './keys';

/** GET /home/casePhoto: the landing page's case images, in display order. */
export function useCasePhotos() {
  return useQuery({
    queryKey: newsKeys.casePhotos,
    queryFn: () => unwrap(request<CasePhoto[]>('/home/casePhoto', { method: 'GET', silent: true })),
    staleTime: 5 * 60_000,
  });
}
