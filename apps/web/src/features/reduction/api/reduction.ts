import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';
import type {
  ReductionKind,
  ReductionPrice,
  ReductionResult,
  ReductionView,
  SubmittedReduction,
} from '../types';

/**
 * The calls of /weightReduction/* (docs/api/reduction.md): each a function and its hook, in one
 * file because each is a short call with the same cache rule (the reduction's view reloads after it).
 */

export const reductionKeys = {
  all: ['reduction'] as const,
  one: (id: string) => ['reduction', 'one', id] as const,
  result: (id: string) => ['reduction', 'result', id] as const,
  list: ['reduction', 'list'] as const,
  price: (kind: ReductionKind, chars: number) => ['reduction', 'price', kind, chars] as const,
};

/** The pay endpoints of 降重 for the payment dialog (orders module). */
export const REDUCTION_PAY_ENDPOINTS = {
  qrPayCodeUrl: '/weightReduction/freeCheckQrPayCode',
  payStatusUrl: '/weightReduction/orderPayStatus',
} as const;

export function useReductionPrice(kind: ReductionKind, chars: number, enabled: boolean) {
  const url = kind === 'reduction' ? '/weightReduction/getGoodsPrice' : '/weightReduction/getGoodsPriceAI';
  return useQuery({
    queryKey: reductionKeys.price(kind, chars),
    queryFn: () => unwrap(request<ReductionPrice>(url, { data: { chars }, silent: true })),
    enabled,
  });
}

export function useSubmitContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: ReductionKind; title?: string; text: string }) =>
      unwrap(request<SubmittedReduction>('/weightReduction/submitContent', { data: input })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reductionKeys.list }),
  });
}

/** POST /weightReduction/submitFile (multipart): the check's extraction reads the document. */
export function useSubmitFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: ReductionKind; title?: string; file: File }) => {
      const form = new FormData();
      form.append('kind', input.kind);
      if (input.title) form.append('title', input.title);
      form.append('file', input.file, input.file.name);
      return unwrap(
        request<SubmittedReduction>('/weightReduction/submitFile', { data: form, timeout: 120_000 }),
      );
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reductionKeys.list }),
  });
}

/** One reduction's status; polls every 2 s while it is being rewritten. */
export function useReduction(id: string | null) {
  return useQuery({
    queryKey: reductionKeys.one(id ?? ''),
    queryFn: ({ signal }) =>
      unwrap(
        request<ReductionView>('/weightReduction/query', { data: { reductionId: id }, silent: true, signal }),
      ),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data?.status === 'rewriting' ? 2000 : false),
  });
}

export function useReductionResult(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: reductionKeys.result(id ?? ''),
    queryFn: () =>
      unwrap(request<ReductionResult>('/weightReduction/txtWeightResult', { data: { reductionId: id } })),
    enabled: Boolean(id) && enabled,
  });
}

export function useReductionList(enabled: boolean) {
  return useQuery({
    queryKey: reductionKeys.list,
    queryFn: () =>
      unwrap(
        request<{ list: ReductionView[] }>('/weightReduction/getMyWeightReductionOrder', { silent: true }),
      ),
    enabled,
  });
}

export function useDownloadReduction() {
  return useMutation({
    mutationFn: async (input: { reductionId: string; title: string }) => {
      const file = await unwrap(
        request('/weightReduction/download', {
          data: { reductionId: input.reductionId },
          responseType: 'blob',
          timeout: 120_000,
        }),
      );
      saveFile(file.blob, file.filename ?? `${input.title}.docx`);
    },
  });
}

export function useDeleteReduction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reductionId: string) =>
      unwrap(request<null>('/weightReduction/delReport', { data: { reductionId } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reductionKeys.list }),
  });
}

/** POST /order/trans: the flagged paragraphs of one of the user's finished check reports as a 降重 order. */
export function useReduceReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { orderId: string; kind: ReductionKind }) =>
      unwrap(request<SubmittedReduction>('/order/trans', { data: input })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reductionKeys.list }),
  });
}
