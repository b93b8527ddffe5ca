import { type Article, ErrorCode } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { RequestError, request } from '../../../lib/request';
import { newsKeys } from './keys';

/** POST /home/articleContent: one published article by its slug (the path under /industryNews). */
export function getArticle(slug: string) {
  return request<Article>('/home/articleContent', { data: { slug }, silent: true });
}

/** True when the server says there is no such article (the page then shows the 404 page). */
export function isArticleNotFound(error: unknown): boolean {
  return error instanceof RequestError && error.code === ErrorCode.RESOURCE_NOT_FOUND;
}

export function useArticle(slug: string) {
  return useQuery({
    queryKey: newsKeys.article(slug),
    queryFn: () => unwrap(getArticle(slug)),
    enabled: slug !== '',
    staleTime: 5 * 60_000,
    retry: (count, error) => !isArticleNotFound(error) && count < 2,
  });
}
