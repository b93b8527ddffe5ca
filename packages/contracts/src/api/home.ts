import { z } from 'zod';
import { endpoint, isoDate } from './endpoint.ts';
import { intInSchema, pageOf } from './orders.ts';

/** The public home API (spec §3 Home info, §7 /home/homeInfo). */

export const siteInfoSchema = z.object({
  name: z.string(),
  contactPhone: z.string(),
  companyAddress: z.string(),
  qrCode: z.string(),
  recordNumber: z.string(),
  copyright: z.string(),
});
export type SiteInfo = z.output<typeof siteInfoSchema>;

export const friendLinkSchema = z.object({ name: z.string(), url: z.string() });
export type FriendLink = z.output<typeof friendLinkSchema>;

/** What registration gives; `available: false` is shown as 即将开放. */
export const benefitSchema = z.object({
  kind: z.enum(['free_check', 'free_aigc_detection', 'ai_writing_trial', 'online_support']),
  available: z.boolean(),
});
export type Benefit = z.output<typeof benefitSchema>;

export const homeInfoSchema = z.object({
  webInfo: siteInfoSchema,
  friendLinkList: z.array(friendLinkSchema),
  benefits: z.array(benefitSchema),
});
export type HomeInfo = z.output<typeof homeInfoSchema>;

// --- industry news (行业资讯, /industryNews) ---------------------------------------------------

export const ARTICLE_CATEGORIES = ['guide', 'norms', 'policy'] as const;
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];

/**
 * An uploaded image as the pages show it: `src` (a middle width) and `srcset` (every stored width,
 * `w` descriptors: the spec's breakpoints at densities 1 and 2 that the original can fill), its
 * intrinsic size (16:9) and a JPEG for share previews (og:image). All paths are on the site.
 */
export const newsImageSchema = z.object({
  id: z.string(),
  src: z.string(),
  srcset: z.string(),
  width: z.number(),
  height: z.number(),
  ogSrc: z.string(),
});
export type NewsImage = z.output<typeof newsImageSchema>;

export const articleSummarySchema = z.object({
  /** The catch-all path under /industryNews, e.g. 'guide/2026/read-check-report'. */
  slug: z.string(),
  category: z.enum(ARTICLE_CATEGORIES),
  title: z.string(),
  summary: z.string(),
  author: z.string(),
  source: z.string().nullable(),
  tags: z.array(z.string()),
  publishedAt: isoDate,
  /** null: no cover uploaded; the pages draw a placeholder. */
  cover: newsImageSchema.nullable(),
});
export type ArticleSummary = z.output<typeof articleSummarySchema>;

/** The body is HTML written by the site or its editors, sanitised by the server when saved. */
export const articleSchema = articleSummarySchema.extend({ bodyHtml: z.string() });
export type Article = z.output<typeof articleSchema>;

export const casePhotoSchema = z.object({
  id: z.string(),
  title: z.string(),
  caption: z.string(),
  /** A path on this site the photo links to, or null. */
  linkPath: z.string().nullable(),
  image: newsImageSchema,
});
export type CasePhoto = z.output<typeof casePhotoSchema>;

export const homeApi = {
  homeInfo: endpoint({ method: 'GET', path: '/home/homeInfo', data: homeInfoSchema }),
  /** Published articles, newest first; `category` '' or absent means all. */
  article: endpoint({
    path: '/home/article',
    body: z.object({
      category: z
        .string({ error: '资讯分类不正确' })
        .trim()
        .refine((v) => v === '' || (ARTICLE_CATEGORIES as readonly string[]).includes(v), {
          error: '资讯分类不正确',
        })
        .transform((v) => (v === '' ? undefined : (v as ArticleCategory)))
        .optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 50, 10, '每页条数'),
    }),
    data: pageOf(articleSummarySchema),
  }),
  /** One published article by its slug; unknown or draft: RESOURCE_NOT_FOUND. */
  articleContent: endpoint({
    path: '/home/articleContent',
    body: z.object({
      slug: z
        .string({ error: '请指定资讯' })
        .trim()
        .min(1, { error: '请指定资讯' })
        .max(200, { error: '资讯地址过长' }),
    }),
    data: articleSchema,
  }),
  /** The landing page's case/showcase images, in display order (visible ones only). */
  casePhoto: endpoint({ method: 'GET', path: '/home/casePhoto', data: z.array(casePhotoSchema) }),
} as const;
