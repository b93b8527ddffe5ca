import type {
  BodyOf,
  ConsoleCommission,
  ConsoleCommissionDetail,
  consoleCommissionApi,
  DataOf,
} from '@kyfw/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../lib/query';
import { request } from '../../lib/request';
import { saveFile } from '../../lib/save-file';

/** The operators' endpoints (the paths of consoleCommissionApi; written out so no zod enters a page). */
const PATHS = {
  list: '/admin/commission/list',
  detail: '/admin/commission/detail',
  quote: '/admin/commission/quote',
  uploadReport: '/admin/commission/uploadReport',
  complete: '/admin/commission/complete',
  export: '/admin/commission/export',
  download: '/admin/commission/download',
} as const satisfies Record<keyof typeof consoleCommissionApi, string>;

/** The queue's query keys. */
const keys = {
  all: ['commission-admin'] as const,
  list: (filter: unknown) => ['commission-admin', 'list', filter] as const,
  one: (id: string) => ['commission-admin', 'one', id] as const,
};

/**
 * The operators' calls (/admin/commission/*, the staff cookie goes along: same origin, its path).
 * In one file: the console's chunk only, each a short call invalidating the same queue.
 */
export type ConsoleCommissionFilter = BodyOf<typeof consoleCommissionApi.list>;

export function useConsoleCommissions(filter: ConsoleCommissionFilter) {
  return useQuery({
    queryKey: keys.list(filter),
    queryFn: () => unwrap(request<DataOf<typeof consoleCommissionApi.list>>(PATHS.list, { data: filter })),
    placeholderData: keepPreviousData,
  });
}

export function useConsoleCommission(commissionId: string | null) {
  return useQuery({
    queryKey: keys.one(commissionId ?? ''),
    queryFn: () => unwrap(request<ConsoleCommissionDetail>(PATHS.detail, { data: { commissionId } })),
    enabled: Boolean(commissionId),
  });
}

function useQueueMutation<V>(fn: (v: V) => Promise<ConsoleCommission>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export const useQuote = () =>
  useQueueMutation((body: BodyOf<typeof consoleCommissionApi.quote>) =>
    unwrap(request<ConsoleCommission>(PATHS.quote, { data: body })),
  );

export const useUploadReport = () =>
  useQueueMutation(({ commissionId, file }: { commissionId: string; file: File }) => {
    const form = new FormData();
    form.append('commissionId', commissionId);
    form.append('file', file, file.name);
    return unwrap(request<ConsoleCommission>(PATHS.uploadReport, { data: form, timeout: 120_000 }));
  });

export const useComplete = () =>
  useQueueMutation((commissionId: string) =>
    unwrap(request<ConsoleCommission>(PATHS.complete, { data: { commissionId } })),
  );

export function useConsoleDownload() {
  return useMutation({
    mutationFn: async (v: { commissionId: string; fileId: string; fileName: string }) => {
      const file = await unwrap(
        request(PATHS.download, {
          data: { commissionId: v.commissionId, fileId: v.fileId },
          responseType: 'blob',
          timeout: 120_000,
        }),
      );
      saveFile(file.blob, file.filename ?? v.fileName);
    },
  });
}
