import { z } from 'zod';
import { endpoint, isoDate, nullData, uuidSchema } from './endpoint.ts';
import { ARTICLE_CATEGORIES, casePhotoSchema, newsImageSchema } from './home.ts';
import { ARTICLE_RULES, ARTICLE_STATUSES } from './news-rules.ts';
import { intInSchema, pageOf } from './orders.ts';

/**
 * The console's news desk under /kyfw/web/v1/admin (docs/api/operator.md, "Industry news"): staff
 * with the role 编辑 or 管理员 write articles, upload covers, publish and unpublish, and manage the
 * landing page's case photos. Every call is written to the audit log.
 */

const required = (max: number, empty: string, label: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, { error: empty })
    .max(max, { error: `${label}不能超过${max}个字` });

const uuid = (label: string) => uuidSchema(`${label}不存在`);

const rowId = (label: string) =>
  z
    .string({ error: `请指定${label}` })
    .trim()
    .regex(/^[0-9]{1,18}$/, { error: `${label}不存在` });
const articleId = rowId('文章');
const casePhotoId = rowId('案例图片');

export const adminArticleRowSchema = z.object({
  id: z.string(),
  slug: z.string(),
  category: z.enum(ARTICLE_CATEGORIES),
  title: z.string(),
  status: z.enum(ARTICLE_STATUSES),
  /** The first publication; kept when an article is taken down and published again. */
  publishedAt: isoDate.nullable(),
  updatedAt: isoDate,
  cover: newsImageSchema.nullable(),
});
export type AdminArticleRow = z.output<typeof adminArticleRowSchema>;

export const adminArticleSchema = adminArticleRowSchema.extend({
  summary: z.string(),
  author: z.string(),
  source: z.string().nullable(),
  tags: z.array(z.string()),
  /** As stored: sanitised by the server when it was saved. */
  bodyHtml: z.string(),
});
export type AdminArticle = z.output<typeof adminArticleSchema>;

export const articleSaveBody = z.object({
  /** Absent: a new draft. */
  id: articleId.optional(),
  slug: z
    .string({ error: '请填写网址' })
    .trim()
    .toLowerCase()
    .min(1, { error: '请填写网址' })
    .max(ARTICLE_RULES.slugMax, { error: `网址不能超过${ARTICLE_RULES.slugMax}个字符` })
    .regex(ARTICLE_RULES.slugPattern, { error: ARTICLE_RULES.slugMessage }),
  category: z.enum(ARTICLE_CATEGORIES, { error: '请选择分类' }),
  title: required(ARTICLE_RULES.titleMax, '请填写标题', '标题'),
  summary: required(ARTICLE_RULES.summaryMax, '请填写摘要', '摘要'),
  author: required(ARTICLE_RULES.authorMax, '请填写作者', '作者'),
  source: z
    .string()
    .trim()
    .max(ARTICLE_RULES.sourceMax, { error: `来源不能超过${ARTICLE_RULES.sourceMax}个字` })
    .nullish()
    .transform((v) => v || null),
  tags: z
    .array(
      z
        .string({ error: '标签须为文字' })
        .trim()
        .min(1, { error: '标签不能为空' })
        .max(ARTICLE_RULES.tagMax, { error: `每个标签不能超过${ARTICLE_RULES.tagMax}个字` }),
      { error: '标签格式错误' },
    )
    .max(ARTICLE_RULES.tagsMax, { error: `标签最多${ARTICLE_RULES.tagsMax}个` })
    .default([])
    .transform((tags) => [...new Set(tags)]),
  bodyHtml: z
    .string({ error: '请填写正文' })
    .min(1, { error: '请填写正文' })
    .max(ARTICLE_RULES.bodyMax, { error: `正文不能超过${ARTICLE_RULES.bodyMax}个字符` }),
  coverId: uuid('封面图片')
    .nullish()
    .transform((v) => v ?? null),
});

export const casePhotoAdminSchema = casePhotoSchema.extend({
  sortOrder: z.number(),
  visible: z.boolean(),
});
export type CasePhotoAdmin = z.output<typeof casePhotoAdminSchema>;

export const newsAdminApi = {
  articleList: endpoint({
    path: '/admin/articles/list',
    permission: 'news.edit',
    body: z.object({
      status: z.enum(ARTICLE_STATUSES, { error: '文章状态不正确' }).optional(),
      keyword: z
        .string()
        .trim()
        .max(60, { error: '关键词不能超过60个字' })
        .optional()
        .transform((v) => v || undefined),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 100, 20, '每页条数'),
    }),
    data: pageOf(adminArticleRowSchema),
  }),
  articleDetail: endpoint({
    path: '/admin/articles/detail',
    permission: 'news.edit',
    body: z.object({ id: articleId }),
    data: adminArticleSchema,
  }),
  /** Creates a draft or changes an article; a published one changes on the site at once. */
  articleSave: endpoint({
    path: '/admin/articles/save',
    permission: 'news.edit',
    body: articleSaveBody,
    data: adminArticleSchema,
  }),
  articlePublish: endpoint({
    path: '/admin/articles/publish',
    permission: 'news.edit',
    body: z.object({ id: articleId }),
    data: adminArticleSchema,
  }),
  articleUnpublish: endpoint({
    path: '/admin/articles/unpublish',
    permission: 'news.edit',
    body: z.object({ id: articleId }),
    data: adminArticleSchema,
  }),
  /** multipart/form-data with one `file` (PNG, JPEG or WebP): resized, answered as a NewsImage. */
  imageUpload: endpoint({ path: '/admin/news/images', permission: 'news.edit', data: newsImageSchema }),
  casePhotoList: endpoint({
    path: '/admin/casePhotos/list',
    permission: 'news.edit',
    data: z.array(casePhotoAdminSchema),
  }),
  casePhotoSave: endpoint({
    path: '/admin/casePhotos/save',
    permission: 'news.edit',
    body: z.object({
      id: casePhotoId.optional(),
      imageId: uuid('图片'),
      title: required(40, '请填写标题', '标题'),
      caption: z.string().trim().max(120, { error: '说明不能超过120个字' }).default(''),
      linkPath: z
        .string()
        .trim()
        .max(200, { error: '链接不能超过200个字符' })
        .regex(/^$|^\/[A-Za-z0-9/_-]*$/, { error: '链接须为本站路径，以 / 开头（例如 /check）' })
        .nullish()
        .transform((v) => v || null),
      sortOrder: intInSchema(0, 9999, 0, '排序'),
      visible: z.boolean({ error: '请选择是否展示' }).default(true),
    }),
    data: casePhotoAdminSchema,
  }),
  casePhotoDelete: endpoint({
    path: '/admin/casePhotos/delete',
    permission: 'news.edit',
    body: z.object({ id: casePhotoId }),
    data: nullData,
  }),
} as const;
