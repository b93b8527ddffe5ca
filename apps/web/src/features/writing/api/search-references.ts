import type { BodyOf, DataOf, writingApi } from '@kyfw/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { writingKeys } from './keys';

export type ReferenceSearch = BodyOf<typeof writingApi.searchReference>;
export type ReferenceResults = DataOf<typeof writingApi.searchReference>;

/**
 * POST /aiWriting/searchReference: the student's own references (with writingId) and the library's
 * records for the words, 学科 and years; with the count.
 */
export function useSearchReferences() {
  return useMutation({
    mutationFn: (input: ReferenceSearch) =>
      unwrap(request<ReferenceResults>('/aiWriting/searchReference', { data: input })),
  });
}

export type ParsedReferences = DataOf<typeof writingApi.analysisReference>;

/**
 * POST /aiWriting/analysisReference with the writing: the pasted references read into fields and
 * formatted; the readable ones become the writing's own references (replacing earlier ones).
 */
export function useAnalyseReferences(writingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      unwrap(request<ParsedReferences>('/aiWriting/analysisReference', { data: { text, writingId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: writingKeys.one(writingId) }),
  });
}
