import { createHash } from 'node:crypto';
import { API_PREFIX, type CasePhoto, ErrorCode, homeApi, ok } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineJob } from '../../jobs/job-definition.ts';
import { DAY_MS, HOUR_MS } from '../../jobs/scheduler.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { createFileStorage, FileNotFoundError, type FileStorage } from '../../lib/storage/index.ts';
import { defineModule } from '../types.ts';
import { findPublishedArticle, listPublishedArticles, listPublishedSlugs } from './articles.repo.ts';
import { createNewsCache, type NewsCache } from './cache.ts';
import { listCasePhotos } from './case-photos.repo.ts';
import { imageKey, purgeUnusedImages, UNUSED_IMAGE_RETENTION_DAYS } from './images.ts';
import { newsConsoleRoutes } from './news.console.ts';
import { TEXTS } from './news.texts.ts';
import { createPages, type PageHead } from './pages.ts';

export interface NewsModuleService {
  db: Kysely<Database>;
  storage: FileStorage;
  now: () => Date;
  /** Every public answer below is cached here; the console's changes call `cache.invalidate()`. */
  cache: NewsCache;
  articles: {
    list(options: Parameters<typeof listPublishedArticles>[1]): ReturnType<typeof listPublishedArticles>;
    find(slug: string): ReturnType<typeof findPublishedArticle>;
  };
  casePhotos(): Promise<CasePhoto[]>;
  /** The <head> (title, description, Open Graph) and status of the page at a path (app.ts). */
  pageHead(pathname: string): Promise<PageHead>;
  sitemap(): Promise<string>;
  robots(): string;
}

const MEDIA_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg' };

/** Answers `body` with a content ETag; a matching If-None-Match gets 304 without the body. */
function sendWithEtag(request: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.send(body);
}

/** Deletes uploads nothing has used for UNUSED_IMAGE_RETENTION_DAYS (images.ts purgeUnusedImages). */
export const purgeUnusedImagesJob = defineJob({
  name: 'news.purge-unused-images',
  maxAttempts: 3,
  async handler({ services, logger }) {
    const { news } = services;
    const before = new Date(news.now().getTime() - UNUSED_IMAGE_RETENTION_DAYS * DAY_MS);
    const deleted = await purgeUnusedImages({ db: news.db, storage: news.storage }, before);
    logger.info({ deleted: deleted.length }, 'purged unused news images');
    return { deleted: deleted.length };
  },
});

/**
 * Industry news (spec §7 /home/article, /home/articleContent, /home/casePhoto): the public answers,
 * cached in the process (cache.ts); the article images under /media/news/; each page's <head> for
 * crawlers and share previews; sitemap.xml and robots.txt; and the console's news desk
 * (news.console.ts, with the console's staffRouting).
 */
export const newsModule = defineModule({
  name: 'news',
  prefix: '',
  createService({ db, config, clock }): NewsModuleService {
    const cache = createNewsCache();
    const find = (slug: string) => cache.get(`article:${slug}`, () => findPublishedArticle(db, slug));
    const pages = createPages({ baseUrl: config.publicBaseUrl, findArticle: find });
    return {
      db,
      storage: createFileStorage(config),
      now: clock,
      cache,
      articles: {
        list: (o) =>
          cache.get(`list:${o.category ?? ''}:${o.page}:${o.pageSize}`, () => listPublishedArticles(db, o)),
        find,
      },
      casePhotos: () =>
        cache.get('casePhotos', async () =>
          (await listCasePhotos(db, true)).map(({ sortOrder: _s, visible: _v, ...photo }) => photo),
        ),
      pageHead: (pathname) => pages.head(pathname),
      sitemap: () => cache.get('sitemap', async () => pages.sitemap(await listPublishedSlugs(db))),
      robots: () => pages.robots(),
    };
  },
  jobs: [purgeUnusedImagesJob],
  // Nightly at 03:30 China time (UTC+8).
  schedules: [
    {
      name: 'news-purge-unused-images',
      jobName: purgeUnusedImagesJob.name,
      everyMs: DAY_MS,
      offsetMs: 19 * HOUR_MS + 30 * 60_000,
    },
  ],
  async routes(app, { news, console }) {
    // The console's news desk, under /kyfw/web/v1/admin (the staff cookie's path).
    await app.register(newsConsoleRoutes, { prefix: API_PREFIX, news, console });

    await app.register(
      async (api) => {
        route(api, homeApi.article, async ({ body }) => ok(await news.articles.list(body)));
        route(api, homeApi.articleContent, async ({ body }) => {
          const article = await news.articles.find(body.slug);
          if (!article) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.articleNotFound);
          return ok(article);
        });
        route(api, homeApi.casePhoto, async ({ request, reply }) => {
          reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
          return sendWithEtag(request, reply, JSON.stringify(ok(await news.casePhotos())));
        });
      },
      { prefix: API_PREFIX },
    );

    // Uploaded images: a new upload gets a new id, so a file never changes under its address.
    app.get<{ Params: { id: string; file: string } }>('/media/news/:id/:file', async (request, reply) => {
      const key = imageKey(request.params.id, request.params.file);
      if (!key) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      try {
        const data = await news.storage.get(key);
        return reply
          .header('content-type', MEDIA_TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(data);
      } catch (error) {
        if (error instanceof FileNotFoundError)
          return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
        throw error;
      }
    });

    app.get('/sitemap.xml', async (request, reply) => {
      reply.header('cache-control', 'public, max-age=600').type('application/xml; charset=utf-8');
      return sendWithEtag(request, reply, await news.sitemap());
    });
    app.get('/robots.txt', async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8');
      return sendWithEtag(request, reply, news.robots());
    });
  },
});
