import type {
  BodyOf,
  consoleLibraryApi,
  LibraryDocument,
  LibraryImport,
  LibraryStats,
  Page,
} from '@kyfw/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../lib/query';
import { request } from '../../lib/request';

/** The endpoints (the paths of consoleLibraryApi; written out so no zod enters the page's chunk). */
const PATHS = {
  stats: '/admin/library/stats',
  imports: '/admin/library/imports',
  importFile: '/admin/library/import',
  search: '/admin/library/search',
  remove: '/admin/library/remove',
} as const satisfies Record<keyof typeof consoleLibraryApi, string>;

const keys = {
  all: ['library-admin'] as const,
  stats: ['library-admin', 'stats'] as const,
  imports: ['library-admin', 'imports'] as const,
  search: (q: unknown) => ['library-admin', 'search', q] as const,
};

export function useLibraryStats() {
  return useQuery({
    queryKey: keys.stats,
    queryFn: () => unwrap(request<LibraryStats>(PATHS.stats, { data: {} })),
  });
}

const isActive = (i: LibraryImport) => i.status === 'queued' || i.status === 'running';

/**
 * The imports, polled every 1.5 s while one is queued or running; when the last one ends, the
 * statistics and searches reload (the library changed).
 */
export function useLibraryImports() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: keys.imports,
    queryFn: async () => {
      const before = queryClient.getQueryData<{ list: LibraryImport[] }>(keys.imports);
      const data = await unwrap(
        request<{ list: LibraryImport[] }>(PATHS.imports, { data: {}, silent: true }),
      );
      const wasActive = new Set(before?.list.filter(isActive).map((i) => i.importId) ?? []);
      if (data.list.some((i) => wasActive.has(i.importId) && !isActive(i)))
        void queryClient.invalidateQueries({
          predicate: (q) => q.queryKey[0] === keys.all[0] && q.queryKey[1] !== 'imports',
        });
      return data;
    },
    refetchInterval: (query) => (query.state.data?.list.some(isActive) ? 1500 : false),
  });
}

export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ collection, file }: { collection: string; file: File }) => {
      const form = new FormData();
      form.append('collection', collection);
      form.append('file', file, file.name);
      return unwrap(request<LibraryImport>(PATHS.importFile, { data: form, timeout: 300_000 }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.imports }),
  });
}

export type LibrarySearch = BodyOf<typeof consoleLibraryApi.search>;

export function useLibrarySearch(query: LibrarySearch) {
  return useQuery({
    queryKey: keys.search(query),
    queryFn: () => unwrap(request<Page<LibraryDocument>>(PATHS.search, { data: query })),
    placeholderData: keepPreviousData,
  });
}

export function useRemoveDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(request<null>(PATHS.remove, { data: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
