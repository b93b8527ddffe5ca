import type { AdminArticle, AdminArticleRow, ArticleStatus, NewsImage } from '@kyfw/contracts';
import type { ArticleCategory, Database, Kysely } from '@kyfw/db';
import { toImageView } from './images.ts';

export interface ArticleSummaryRow {
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  author: string;
  source: string | null;
  tags: string[];
  publishedAt: string;
  cover: NewsImage | null;
}

export interface ArticleRow extends ArticleSummaryRow {
  bodyHtml: string;
}

const SUMMARY_COLUMNS = [
  'articles.slug',
  'articles.category',
  'articles.title',
  'articles.summary',
  'articles.author',
  'articles.source',
  'articles.tags',
  'articles.published_at',
  'news_images.id as cover_image_id',
  'news_images.widths as cover_widths',
] as const;

interface SummarySource {
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  author: string;
  source: string | null;
  tags: unknown;
  published_at: Date | null;
  cover_image_id: string | null;
  cover_widths: unknown;
}

function tagsOf(value: unknown): string[] {
  const tags = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(tags) ? tags.map(String) : [];
}

function coverOf(row: { cover_image_id: string | null; cover_widths: unknown }): NewsImage | null {
  return row.cover_image_id ? toImageView({ id: row.cover_image_id, widths: row.cover_widths }) : null;
}

function toSummary(row: SummarySource): ArticleSummaryRow {
  return {
    slug: row.slug,
    category: row.category,
    title: row.title,
    summary: row.summary,
    author: row.author,
    source: row.source,
    tags: tagsOf(row.tags),
    publishedAt: (row.published_at ?? new Date(0)).toISOString(),
    cover: coverOf(row),
  };
}

function withCover(db: Kysely<Database>) {
  return db.selectFrom('articles').leftJoin('news_images', 'news_images.id', 'articles.cover_id');
}

function published(db: Kysely<Database>, category: ArticleCategory | undefined) {
  let query = withCover(db).where('articles.status', '=', 'published');
  if (category) query = query.where('articles.category', '=', category);
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
      .orderBy('articles.published_at', 'desc')
      .orderBy('articles.id', 'desc')
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
    .select([...SUMMARY_COLUMNS, 'articles.body_html'])
    .where('articles.slug', '=', slug)
    .executeTakeFirst();
  return row ? { ...toSummary(row), bodyHtml: row.body_html } : undefined;
}

/** Every published article's address and last change (sitemap.xml). */
export async function listPublishedSlugs(db: Kysely<Database>): Promise<{ slug: string; updatedAt: Date }[]> {
  const rows = await db
    .selectFrom('articles')
    .select(['slug', 'updated_at'])
    .where('status', '=', 'published')
    .orderBy('published_at', 'desc')
    .execute();
  return rows.map((r) => ({ slug: r.slug, updatedAt: r.updated_at }));
}

// --- the console's news desk ----------------------------------------------------------------------

const ADMIN_COLUMNS = [
  'articles.id',
  'articles.slug',
  'articles.category',
  'articles.title',
  'articles.status',
  'articles.published_at',
  'articles.updated_at',
  'news_images.id as cover_image_id',
  'news_images.widths as cover_widths',
] as const;

function toAdminRow(row: {
  id: string;
  slug: string;
  category: ArticleCategory;
  title: string;
  status: ArticleStatus;
  published_at: Date | null;
  updated_at: Date;
  cover_image_id: string | null;
  cover_widths: unknown;
}): AdminArticleRow {
  return {
    id: String(row.id),
    slug: row.slug,
    category: row.category,
    title: row.title,
    status: row.status,
    publishedAt: row.published_at?.toISOString() ?? null,
    updatedAt: row.updated_at.toISOString(),
    cover: coverOf(row),
  };
}

/** Every article (drafts too), the latest change first; `keyword` matches the title or the address. */
export async function listAllArticles(
  db: Kysely<Database>,
  filter: { status?: ArticleStatus; keyword?: string; page: number; pageSize: number },
): Promise<{ list: AdminArticleRow[]; total: number }> {
  let query = withCover(db);
  if (filter.status) query = query.where('articles.status', '=', filter.status);
  if (filter.keyword) {
    const like = `%${filter.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb('articles.title', 'like', like), eb('articles.slug', 'like', like)]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select(ADMIN_COLUMNS)
      .orderBy('articles.updated_at', 'desc')
      .orderBy('articles.id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toAdminRow), total: Number(count.n) };
}

export async function findArticleById(db: Kysely<Database>, id: string): Promise<AdminArticle | undefined> {
  const row = await withCover(db)
    .select([
      ...ADMIN_COLUMNS,
      'articles.summary',
      'articles.author',
      'articles.source',
      'articles.tags',
      'articles.body_html',
    ])
    .where('articles.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toAdminRow(row),
    summary: row.summary,
    author: row.author,
    source: row.source,
    tags: tagsOf(row.tags),
    bodyHtml: row.body_html,
  };
}

export async function slugTaken(db: Kysely<Database>, slug: string, exceptId: string | undefined) {
  let query = db.selectFrom('articles').select('id').where('slug', '=', slug);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export interface ArticleFields {
  slug: string;
  category: ArticleCategory;
  title: string;
  summary: string;
  author: string;
  source: string | null;
  tags: string[];
  bodyHtml: string;
  coverId: string | null;
}

/** A new draft; its id. */
export async function insertArticle(db: Kysely<Database>, fields: ArticleFields, now: Date): Promise<string> {
  const row = await db
    .insertInto('articles')
    .values({ ...columnsOf(fields), status: 'draft', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/** Changes an article's fields (not its status); false when there is no such article. */
export async function updateArticle(
  db: Kysely<Database>,
  id: string,
  fields: ArticleFields,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('articles')
    .set({ ...columnsOf(fields), updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Publishes (keeping the first publication time when it was published before) or takes an article
 * down; false when there is no such article.
 */
export async function setArticleStatus(
  db: Kysely<Database>,
  id: string,
  status: ArticleStatus,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('articles')
    .set((eb) => ({
      status,
      updated_at: now,
      ...(status === 'published' ? { published_at: eb.fn.coalesce('published_at', eb.val(now)) } : {}),
    }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

function columnsOf(f: ArticleFields) {
  return {
    slug: f.slug,
    category: f.category,
    title: f.title,
    summary: f.summary,
    author: f.author,
    source: f.source,
    tags: JSON.stringify(f.tags),
    body_html: f.bodyHtml,
    cover_id: f.coverId,
  };
}
