// Free of zod: the console's editor page imports these without pulling the schemas into its chunk.

/** Limits of an article, shared by the server's schema and the editor's form. */
export const ARTICLE_RULES = {
  slugPattern: /^[a-z0-9]+(-[a-z0-9]+)*(\/[a-z0-9]+(-[a-z0-9]+)*){0,4}$/,
  slugMax: 200,
  slugMessage: '网址只能由小写字母、数字和连字符组成，以 / 分段（例如 policy/2026/aigc-labelling）',
  titleMax: 120,
  summaryMax: 300,
  authorMax: 60,
  sourceMax: 120,
  tagsMax: 8,
  tagMax: 20,
  bodyMax: 200_000,
  /** Cover uploads: PNG, JPEG or WebP, at most this many bytes, at least 320 pixels wide. */
  imageMaxBytes: 8 * 1024 * 1024,
  imageMinWidth: 320,
} as const;

export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];
