import type { PageHeadTags } from '../../plugins/web-app.ts';
import type { ArticleRow } from './articles.repo.ts';

/** What the server writes into the <head> of index.html for one page path (plugins/web-app.ts). */
export type PageHead = PageHeadTags;

const SITE = '科研服务网';
const DEFAULT_DESCRIPTION =
  '科研服务网：论文查重、论文降重、降AIGC、AI论文写作、收录引用检索报告与科技查新，一站式学术服务平台。';

/**
 * The public pages a search engine may index (sitemap.xml) with their titles and descriptions. The
 * web app sets the same titles when it renders (apps/web/src/config/services.ts); this is what a
 * crawler or a share preview sees before any script runs.
 */
export const PUBLIC_PAGES: readonly { path: string; title: string; description: string }[] = [
  { path: '/', title: `${SITE} - 论文查重 · 降重 · AI写作`, description: DEFAULT_DESCRIPTION },
  {
    path: '/check',
    title: '论文查重',
    description:
      '上传论文检测与比对库中文献的相似情况，报告给出总文字复制比、去除引用文献复制比、单篇最大文字复制比与逐章节明细；也可做AIGC检测。',
  },
  {
    path: '/reduction',
    title: '论文降重',
    description:
      '找出重复段落逐段改写，数字、引用与术语由程序逐项核对，改写前后用本站比对库各测一次重复率，可下载 Word 文档。',
  },
  {
    path: '/reduction/aigc',
    title: '降AIGC率',
    description: '用本站AIGC检测器找出疑似AI生成的段落并逐段重写，处理前后给出AIGC指数（参考值）。',
  },
  {
    path: '/ai',
    title: 'AI论文写作',
    description: '选题、提纲、摘要、参考文献与全文写作，按模板排版并下载 Word 文档。',
  },
  {
    path: '/searchReport',
    title: '收录引用检索报告',
    description: '论文被 SCI、EI、CSSCI 等数据库收录与引用情况的检索报告。',
  },
  {
    path: '/technologySearch',
    title: '科技查新',
    description: '立项、成果鉴定、报奖与专利申请所需的科技查新报告。',
  },
  {
    path: '/technologySearch/downloadService',
    title: '文献下载服务',
    description: '按题录、DOI 或链接获取期刊论文、学位论文、专利与标准原文，仅限个人学习研究。',
  },
  {
    path: '/technologySearch/techEvaluation',
    title: '科技成果评价',
    description: '对科技成果的创新性、先进性与应用价值进行评价。',
  },
  {
    path: '/industryNews',
    title: '行业资讯',
    description: '查重报告解读、参考文献与引用规范、AI生成内容标识等学术写作相关的指南与政策解读。',
  },
  { path: '/aboutUs', title: '关于我们', description: DEFAULT_DESCRIPTION },
];

/** Paths (and everything under them) that are nobody's search result. */
const PRIVATE_PREFIXES = ['/user', '/admin', '/login', '/register', '/logout', '/check/report'];

const NEWS_PREFIX = '/industryNews/';

/** The article slug of an /industryNews/… path (normalised like the web's catch-all), or undefined. */
export function articleSlugOf(pathname: string): string | undefined {
  if (!pathname.startsWith(NEWS_PREFIX)) return undefined;
  const slug = pathname.slice(NEWS_PREFIX.length).split('/').filter(Boolean).join('/');
  return slug || undefined;
}

export function createPages(options: {
  baseUrl: string;
  findArticle(slug: string): Promise<ArticleRow | undefined>;
}) {
  const base = options.baseUrl.replace(/\/$/, '');
  const absolute = (path: string) => `${base}${path}`;
  const siteTitle = (title: string) => (title.includes(SITE) ? title : `${title} - ${SITE}`);

  function plain(path: string, title: string, description: string, index: boolean): PageHead {
    return {
      status: 200,
      title: siteTitle(title),
      description,
      canonical: index ? absolute(path) : null,
      index,
      og: [
        ['og:site_name', SITE],
        ['og:type', 'website'],
        ['og:title', title],
        ['og:description', description],
        ['og:url', absolute(path)],
        ['og:locale', 'zh_CN'],
      ],
    };
  }

  return {
    /** The head of the page at `pathname` (no query string). */
    async head(pathname: string): Promise<PageHead> {
      const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      const slug = articleSlugOf(`${path}/`);
      if (slug) {
        const article = await options.findArticle(slug);
        if (!article) return { ...plain(path, '页面不存在', DEFAULT_DESCRIPTION, false), status: 404 };
        const url = absolute(`${NEWS_PREFIX}${article.slug}`);
        return {
          status: 200,
          title: siteTitle(article.title),
          description: article.summary,
          canonical: url,
          index: true,
          og: [
            ['og:site_name', SITE],
            ['og:type', 'article'],
            ['og:title', article.title],
            ['og:description', article.summary],
            ['og:url', url],
            ['og:locale', 'zh_CN'],
            ...(article.cover
              ? ([
                  ['og:image', absolute(article.cover.ogSrc)],
                  ['og:image:type', 'image/jpeg'],
                  ['og:image:alt', article.title],
                ] as const)
              : []),
            ['article:published_time', article.publishedAt],
            ['article:author', article.author],
            ...article.tags.map((tag) => ['article:tag', tag] as const),
          ],
        };
      }
      const known = PUBLIC_PAGES.find((p) => p.path === path);
      if (known) return plain(path, known.title, known.description, true);
      const isPrivate = PRIVATE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
      return plain(path, SITE, DEFAULT_DESCRIPTION, !isPrivate);
    },

    /** sitemap.xml: the public pages and every published article. */
    sitemap(articles: readonly { slug: string; updatedAt: Date }[]): string {
      const url = (loc: string, lastmod?: Date) =>
        `<url><loc>${escapeXml(absolute(loc))}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`;
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...PUBLIC_PAGES.map((p) => url(p.path)),
        ...articles.map((a) => url(`${NEWS_PREFIX}${a.slug}`, a.updatedAt)),
        '</urlset>',
        '',
      ].join('\n');
    },

    /** robots.txt: the console, the account area and the API are not for crawlers. */
    robots(): string {
      return [
        'User-agent: *',
        'Disallow: /admin',
        'Disallow: /user',
        'Disallow: /kyfw/',
        'Disallow: /__dev/',
        'Disallow: /__sandbox/',
        'Disallow: /check/report/',
        'Allow: /',
        '',
        `Sitemap: ${absolute('/sitemap.xml')}`,
        '',
      ].join('\n');
    },
  };
}

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
