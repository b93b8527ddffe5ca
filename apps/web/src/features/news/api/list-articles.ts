import type { ArticleCategory, ArticleSummary, Page } from '@kyfw/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { newsKeys } from './keys';

export const NEWS_PAGE_SIZE = 10;

/** POST /home/article: published articles, newest first; '' is every category. */
export function listArticles(category: ArticleCategory | '', page: number) {
  return request<Page<ArticleSummary>>('/home/article', {
    data: { category, page, pageSize: NEWS_PAGE_SIZE },
    silent: true,
  });
}

export function useArticles(category: ArticleCategory | '', page: number) {
  return useQuery({
    queryKey: newsKeys.list(category, page),
    queryFn: () => unwrap(listArticles(category, page)),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}
