/** Every query key of the news feature. */
export const newsKeys = {
  all: ['news'] as const,
  list: (category: string, page: number) => ['news', 'list', category, page] as const,
  article: (slug: string) => ['news', 'article', slug] as const,
  casePhotos: ['news', 'casePhotos'] as const,
};
