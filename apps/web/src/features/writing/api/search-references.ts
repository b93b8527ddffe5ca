import type { BodyOf, DataOf, writingApi } from '@kyfw/contracts';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

export type ReferenceSearch = BodyOf<typeof writingApi.searchReference>;
export type ReferenceResults = DataOf<typeof writingApi.searchReference>;

/** POST /aiWriting/searchReference: the library's records for the words, 学科 and years; with the count. */
export function useSearchReferences() {
  return useMutation({
    mutationFn: (input: ReferenceSearch) =>
      unwrap(request<ReferenceResults>('/aiWriting/searchReference', { data: input })),
  });
}
