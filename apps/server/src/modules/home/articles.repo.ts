import type { ArticleCategory, Database, Kysely } from '@kyfw/db';

export interface ArticleSummaryRow {
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  author: string;
  source: string | null;
  tags: string[];
  publishedAt: string;
}

export interface ArticleRow extends ArticleSummaryRow {
  bodyHtml: string;
}

const SUMMARY_COLUMNS = [
  'slug',
  'category',
  'title',
  'summary',
  'author',
  'source',
  'tags',
  'published_at',
] as const;

function toSummary(row: {
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  author: string;
  source: string | null;
  tags: unknown;
  published_at: Date | null;
}): ArticleSummaryRow {
  const tags = typeof row.tags === 'string' ? JSON.parse(row.tags) : row.tags;
  return {
    slug: row.slug,
    category: row.category,
    title: row.title,
    summary: row.summary,
    author: row.author,
    source: row.source,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    publishedAt: (row.published_at ?? new Date(0)).toISOString(),
  };
}

function published(db: Kysely<Database>, category: ArticleCategory | undefined) {
  let query = db.selectFrom('articles').where('status', '=', 'published');
  if (category) query = query.where('category', '=', category);
  return query;
}

/** A page of published articles, newest first, and how many there are in all. */
export async function listPublishedArticles(
  db: Kysely<Database>,
  options: { category?: ArticleCategory; page: number; pageSize: number },
): Promise<{ list: ArticleSummaryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    published(db, options.category)
      .select(SUMMARY_COLUMNS)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    published(db, options.category)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toSummary), total: Number(count.n) };
}

/** One published article by slug, or undefined (drafts are not served). */
export async function findPublishedArticle(
  db: Kysely<Database>,
  slug: string,
): Promise<ArticleRow | undefined> {
  const row = await published(db, undefined)
    .select([...SUMMARY_COLUMNS, 'body_html'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? { ...toSummary(row), bodyHtml: row.body_html } : undefined;
}
