import { API_PREFIX, ErrorCode, homeApi, ok } from '@kyfw/contracts';
import QRCode from 'qrcode';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { defineModule } from '../types.ts';
import { findPublishedArticle, listPublishedArticles } from './articles.repo.ts';
import { createHomeService, type HomeService } from './home.service.ts';

export interface HomeModuleService {
  home: HomeService;
  /** Industry news (articles.repo.ts): published articles only. */
  articles: {
    list(options: Parameters<typeof listPublishedArticles>[1]): ReturnType<typeof listPublishedArticles>;
    find(slug: string): ReturnType<typeof findPublishedArticle>;
  };
  /**
   * The footer's QR image (the seeded webInfo.qrCode points at GET /images/wechat-qr.png). Until
   * an operator sets webInfo.qrCode to their Official Account's own QR image, it is a real QR code
   * of the site's public address, so a student can open the site on a phone. Drawn once per process.
   */
  siteQrPng(): Promise<Buffer>;
}

/**
 * Public home data (spec §7): GET /kyfw/web/v1/home/homeInfo, the industry news list and article
 * (/home/article, /home/articleContent) and the footer QR image.
 */
export const homeModule = defineModule({
  name: 'home',
  prefix: '',
  createService({ db, config }): HomeModuleService {
    let png: Promise<Buffer> | undefined;
    return {
      home: createHomeService({ db }),
      articles: {
        list: (options) => listPublishedArticles(db, options),
        find: (slug) => findPublishedArticle(db, slug),
      },
      siteQrPng() {
        png ??= QRCode.toBuffer(config.publicBaseUrl, { type: 'png', width: 240, margin: 1 });
        return png;
      },
    };
  },
  async routes(app, { home }) {
    await app.register(
      async (api) => {
        route(api, homeApi.homeInfo, async () => ok(await home.home.getHomeInfo()));
        route(api, homeApi.article, async ({ body }) => ok(await home.articles.list(body)));
        route(api, homeApi.articleContent, async ({ body }) => {
          const article = await home.articles.find(body.slug);
          if (!article) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '该资讯不存在或已下线');
          return ok(article);
        });
      },
      { prefix: API_PREFIX },
    );
    app.get('/images/wechat-qr.png', async (_request, reply) =>
      reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(await home.siteQrPng()),
    );
  },
});
