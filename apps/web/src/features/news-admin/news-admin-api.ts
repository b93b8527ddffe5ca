import type {
  AdminArticle,
  AdminArticleRow,
  BodyOf,
  CasePhotoAdmin,
  NewsImage,
  newsAdminApi,
  Page,
} from '@kyfw/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../lib/query';
import { request } from '../../lib/request';

/** The news desk's endpoints (the paths of newsAdminApi, written out so no zod enters the page). */
const PATHS = {
  articleList: '/admin/articles/list',
  articleDetail: '/admin/articles/detail',
  articleSave: '/admin/articles/save',
  articlePublish: '/admin/articles/publish',
  articleUnpublish: '/admin/articles/unpublish',
  imageUpload: '/admin/news/images',
  casePhotoList: '/admin/casePhotos/list',
  casePhotoSave: '/admin/casePhotos/save',
  casePhotoDelete: '/admin/casePhotos/delete',
} as const satisfies Record<keyof typeof newsAdminApi, string>;

const keys = {
  all: ['news-admin'] as const,
  list: (filter: unknown) => ['news-admin', 'list', filter] as const,
  one: (id: string) => ['news-admin', 'one', id] as const,
  photos: ['news-admin', 'photos'] as const,
};

export type ArticleFilter = BodyOf<typeof newsAdminApi.articleList>;
export type ArticleInput = BodyOf<typeof newsAdminApi.articleSave>;
export type CasePhotoInput = BodyOf<typeof newsAdminApi.casePhotoSave>;

/** The articles (drafts too), latest change first. */
export function useAdminArticles(filter: ArticleFilter) {
  return useQuery({
    queryKey: keys.list(filter),
    queryFn: () => unwrap(request<Page<AdminArticleRow>>(PATHS.articleList, { data: filter })),
    placeholderData: keepPreviousData,
  });
}

/** One article as stored (its body as the server sanitised it). */
export function useAdminArticle(id: string | null) {
  return useQuery({
    queryKey: keys.one(id ?? ''),
    queryFn: () => unwrap(request<AdminArticle>(PATHS.articleDetail, { data: { id } })),
    enabled: Boolean(id),
  });
}

function useDeskMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export const useSaveArticle = () =>
  useDeskMutation((body: ArticleInput) => unwrap(request<AdminArticle>(PATHS.articleSave, { data: body })));

/** Publishes (`true`) or takes down an article. */
export const useSetPublished = () =>
  useDeskMutation(({ id, published }: { id: string; published: boolean }) =>
    unwrap(
      request<AdminArticle>(published ? PATHS.articlePublish : PATHS.articleUnpublish, { data: { id } }),
    ),
  );

/** Uploads an image; the server answers it resized (src, srcset). */
export function uploadNewsImage(file: File): Promise<NewsImage> {
  const form = new FormData();
  form.append('file', file, file.name);
  return unwrap(request<NewsImage>(PATHS.imageUpload, { data: form, timeout: 120_000 }));
}

export function useCasePhotos() {
  return useQuery({
    queryKey: keys.photos,
    queryFn: () => unwrap(request<CasePhotoAdmin[]>(PATHS.casePhotoList, {})),
  });
}

export const useSaveCasePhoto = () =>
  useDeskMutation((body: CasePhotoInput) =>
    unwrap(request<CasePhotoAdmin>(PATHS.casePhotoSave, { data: body })),
  );

export const useDeleteCasePhoto = () =>
  useDeskMutation((id: string) => unwrap(request<null>(PATHS.casePhotoDelete, { data: { id } })));
