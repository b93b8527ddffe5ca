import { documentTitle, pageRoutes, routeHead, SITE_DESCRIPTION, SITE_NAME } from '@kyfw/contracts';
import type { PageHeadTags } from '../../plugins/web-app.ts';
import type { ArticleRow } from './articles.repo.ts';

/** What the server writes into the <head> of index.html for one page path (plugins/web-app.ts). */
export type PageHead = PageHeadTags;

const SITE = SITE_NAME;
const DEFAULT_DESCRIPTION = SITE_DESCRIPTION;

/** The pages a search engine may index (sitemap.xml): the web's route list, minus the article catch-all. */
const INDEXABLE_PATHS = pageRoutes
  .filter((route) => route.indexable)
  .map((route) => route.path.replace(/\/\*$/, ''));

const NEWS_PREFIX = '/industryNews/';

export function createPages(options: {
  baseUrl: string;
  findArticle(slug: string): Promise<ArticleRow | undefined>;
}) {
  const base = options.baseUrl.replace(/\/$/, '');
  const absolute = (path: string) => `${base}${path}`;
  const siteTitle = documentTitle;

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
      const page = routeHead(path);
      // A path no page of the web app serves: 404 with the same index.html (the app shows its 404 page).
      if (!page) return { ...plain(path, '页面不存在', DEFAULT_DESCRIPTION, false), status: 404 };
      const { route, rest: slug } = page;
      if (route.name === 'industryNews' && slug) {
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
      // The route's own spelling for the canonical address (the router matches /aboutus too).
      const canonicalPath = route.path.includes(':') ? path : route.path.replace(/\/\*$/, '');
      return plain(canonicalPath, page.shortTitle, page.description, route.indexable);
    },

    /** sitemap.xml: the public pages and every published article. */
    sitemap(articles: readonly { slug: string; updatedAt: Date }[]): string {
      const url = (loc: string, lastmod?: Date) =>
        `<url><loc>${escapeXml(absolute(loc))}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`;
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...INDEXABLE_PATHS.map((p) => url(p)),
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
