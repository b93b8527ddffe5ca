import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';
import type { OutlineItem, SubmittedOrder, WritingAbstract, WritingView } from '../types';
import { writingKeys } from './keys';

/**
 * The calls of one writing after its draft exists (/aiWriting/*): each a function and its hook.
 * Kept in one file because every one is a three-line call with the same cache rule: the writing's
 * view reloads after it.
 */

export function getWriting(writingId: string, signal?: AbortSignal) {
  return request<WritingView>('/aiWriting/query', { data: { writingId }, silent: true, signal });
}

/** The writing's view; polls every 2 s while the full text or a section's revision is being written. */
export function useWriting(writingId: string | null) {
  return useQuery({
    queryKey: writingKeys.one(writingId ?? ''),
    queryFn: ({ signal }) => unwrap(getWriting(writingId!, signal)),
    enabled: Boolean(writingId),
    refetchInterval: (q) =>
      q.state.data?.status === 'writing' || q.state.data?.revision?.state === 'running' ? 2000 : false,
  });
}

export function useFreeOutlines(enabled: boolean) {
  return useQuery({
    queryKey: writingKeys.freeOutlines,
    queryFn: () => unwrap(request<{ free: number }>('/aiWriting/freeOutlineNumber', { silent: true })),
    enabled,
  });
}

function useWritingMutation<I, O>(fn: (input: I) => Promise<O>, writingIdOf: (input: I) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_out, input) => {
      void queryClient.invalidateQueries({ queryKey: writingKeys.freeOutlines });
      void queryClient.invalidateQueries({ queryKey: writingKeys.list });
      return queryClient.invalidateQueries({ queryKey: writingKeys.one(writingIdOf(input)) });
    },
  });
}

export function useGenerateOutline() {
  return useWritingMutation(
    (writingId: string) =>
      unwrap(
        request<{ outline: OutlineItem[] }>('/aiWriting/outline', { data: { writingId }, timeout: 120_000 }),
      ),
    (id) => id,
  );
}

export function useSaveOutline() {
  return useWritingMutation(
    (input: { writingId: string; outline: OutlineItem[] }) =>
      unwrap(request<{ outline: OutlineItem[] }>('/aiWriting/combOutline', { data: input })),
    (input) => input.writingId,
  );
}

export function useGenerateAbstract() {
  return useWritingMutation(
    (writingId: string) =>
      unwrap(request<WritingAbstract>('/aiWriting/abstract', { data: { writingId }, timeout: 120_000 })),
    (id) => id,
  );
}

export function useSubmitOrder() {
  return useWritingMutation(
    (input: { writingId: string; withoutOutline?: boolean }) =>
      unwrap(
        request<SubmittedOrder>(input.withoutOutline ? '/aiWriting/outlineByPay' : '/aiWriting/submitOrder', {
          data: { writingId: input.writingId },
        }),
      ),
    (input) => input.writingId,
  );
}

/** Fetches the .docx and saves it under its Chinese name. */
export function useDownloadWriting() {
  return useMutation({
    mutationFn: async (input: { writingId: string; title: string }) => {
      const file = await unwrap(
        request('/aiWriting/download', {
          data: { writingId: input.writingId },
          responseType: 'blob',
          timeout: 120_000,
        }),
      );
      saveFile(file.blob, file.filename ?? `${input.title}.docx`);
    },
  });
}

export function useWritingList(enabled: boolean) {
  return useQuery({
    queryKey: writingKeys.list,
    queryFn: () => unwrap(request<{ list: WritingView[] }>('/aiWriting/list', { silent: true })),
    enabled,
  });
}
