import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { DraftInput, WritingView } from '../types';
import { writingKeys } from './keys';

/** POST /aiWriting/saveOrder: creates or updates the draft. */
export function saveDraft(input: DraftInput) {
  return request<WritingView>('/aiWriting/saveOrder', { data: input });
}

export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DraftInput) => unwrap(saveDraft(input)),
    onSuccess: (view) => queryClient.setQueryData(writingKeys.one(view.writingId), view),
  });
}
