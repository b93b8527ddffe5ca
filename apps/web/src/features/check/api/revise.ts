import type { BodyOf, checkReviseApi, RecheckResult, ReviseState, RevisionVersion } from '@kyfw/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';
import { checkKeys } from './keys';

/** Revise in the report (docs/api/check.md#revise-in-the-report): state, live re-check, versions, .docx. */

/** POST /freeCheck/revise/state: the working copy, the versions, today's re-checks left. */
export function getReviseState(orderId: string) {
  return request<ReviseState>('/freeCheck/revise/state', { data: { orderId }, silent: true });
}

export function useReviseState(orderId: string) {
  return useQuery({
    queryKey: checkKeys.revise(orderId),
    queryFn: () => unwrap(getReviseState(orderId)),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** POST /freeCheck/revise/recheck: one paragraph with its new text, re-checked; the working copy saved. */
export function recheckParagraph(body: BodyOf<typeof checkReviseApi.recheck>, signal?: AbortSignal) {
  return request<RecheckResult>('/freeCheck/revise/recheck', { data: body, signal, timeout: 60_000 });
}

/**
 * The live re-check; on success the cached state gets the working copy's figures and edits (the
 * editor keeps the texts), so the versions panel and the figures agree without a refetch.
 */
export function useRecheckParagraph(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ index, text, signal }: { index: number; text: string; signal?: AbortSignal }) =>
      unwrap(recheckParagraph({ orderId, index, text }, signal)),
    onSuccess: (result, { index, text }) => {
      queryClient.setQueryData<ReviseState>(checkKeys.revise(orderId), (state) => {
        if (!state) return state;
        const texts = new Map((state.draft?.edits ?? []).map((e) => [e.index, e.text]));
        texts.set(index, text);
        const edits = result.edited.map((i) => ({ index: i, text: texts.get(i) ?? '' }));
        return {
          ...state,
          limits: result.limits,
          draft: { edits, figures: result.figures, updatedAt: new Date().toISOString() },
        };
      });
    },
  });
}

/** POST /freeCheck/revise/saveVersion: the working copy kept as the next version. */
export function useSaveVersion(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(request<RevisionVersion>('/freeCheck/revise/saveVersion', { data: { orderId } })),
    onSuccess: (version) => {
      queryClient.setQueryData<ReviseState>(checkKeys.revise(orderId), (state) =>
        state ? { ...state, versions: [...state.versions, version] } : state,
      );
    },
  });
}

/** POST /freeCheck/revise/download: the revised .docx (the working copy, or a version), saved under its name. */
export function useDownloadRevised(orderId: string) {
  return useMutation({
    mutationFn: async ({ versionNo, title }: { versionNo?: number; title: string }) => {
      const file = await unwrap(
        request('/freeCheck/revise/download', {
          data: versionNo === undefined ? { orderId } : { orderId, versionNo },
          responseType: 'blob',
          timeout: 120_000,
        }),
      );
      saveFile(file.blob, file.filename ?? `${title}-修改稿.docx`);
    },
  });
}
