import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { TitleSuggestion, WritingAreaId } from '../types';

/** POST /aiWriting/title: title suggestions for a topic. */
export function suggestTitles(input: { topic: string; area: WritingAreaId; discipline: string }) {
  return request<{ titles: TitleSuggestion[]; sandbox: boolean }>('/aiWriting/title', {
    data: input,
    timeout: 120_000,
  });
}

export function useSuggestTitles() {
  return useMutation({
    mutationFn: (input: Parameters<typeof suggestTitles>[0]) => unwrap(suggestTitles(input)),
  });
}
