import type { BodyOf, writingApi } from '@kyfw/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { SubmittedOrder, WritingView } from '../types';
import { writingKeys } from './keys';

/** /aiWriting/updateOrder: one section rewritten in a job; the view polls until it is done. */
export function useReviseSection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BodyOf<typeof writingApi.updateOrder>) =>
      unwrap(request<WritingView>('/aiWriting/updateOrder', { data: input })),
    onSuccess: (view) => queryClient.setQueryData(writingKeys.one(view.writingId), view),
  });
}

/** /aiWriting/unlimitedRevisions/payment: the add-on's pending order, paid in the payment dialog. */
export function useOrderUnlimitedRevisions() {
  return useMutation({
    mutationFn: (writingId: string) =>
      unwrap(request<SubmittedOrder>('/aiWriting/unlimitedRevisions/payment', { data: { writingId } })),
  });
}
