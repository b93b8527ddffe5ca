import { API_PREFIX, homeApi, ok } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import QRCode from 'qrcode';
import { route } from '../../lib/route.ts';
import { createFileStorage, FileNotFoundError, type FileStorage } from '../../lib/storage/index.ts';
import { defineModule } from '../types.ts';
import { createHomeService, type HomeService } from './home.service.ts';
import { siteConsoleRoutes, siteQrKey } from './site.console.ts';

export interface HomeModuleService {
  home: HomeService;
  db: Kysely<Database>;
  /** Where the QR images uploaded in the console are kept (site/qr/<uuid>.png). */
  storage: FileStorage;
  now: () => Date;
  /**
   * The footer's QR image (the seeded webInfo.qrCode points at GET /images/wechat-qr.png). Until
   * an operator sets webInfo.qrCode to their Official Account's own QR image, it is a real QR code
   * of the site's public address, so a student can open the site on a phone. Drawn once per process.
   */
  siteQrPng(): Promise<Buffer>;
}

/**
 * Public home data (spec §7): GET /kyfw/web/v1/home/homeInfo and the footer QR image. The industry
 * news endpoints under /home are the news module's (modules/news).
 */
export const homeModule = defineModule({
  name: 'home',
  prefix: '',
  createService({ db, config, clock }): HomeModuleService {
    let png: Promise<Buffer> | undefined;
    return {
      home: createHomeService({ db }),
      db,
      storage: createFileStorage(config),
      now: clock,
      siteQrPng() {
        png ??= QRCode.toBuffer(config.publicBaseUrl, { type: 'png', width: 240, margin: 1 });
        return png;
      },
    };
  },
  async routes(app, { home, console }) {
    // The console's site info and friend links (admin, editor), under /admin with the staff session.
    await app.register(siteConsoleRoutes, {
      prefix: API_PREFIX,
      db: home.db,
      home: home.home,
      storage: home.storage,
      now: home.now,
      console,
    });
    await app.register(
      async (api) => {
        route(api, homeApi.homeInfo, async () => ok(await home.home.getHomeInfo()));
      },
      { prefix: API_PREFIX },
    );
    app.get('/images/wechat-qr.png', async (_request, reply) =>
      reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(await home.siteQrPng()),
    );
    // A QR image uploaded in the console: a new upload gets a new name, so a file never changes.
    app.get<{ Params: { file: string } }>('/media/site/qr/:file', async (request, reply) => {
      const key = siteQrKey(request.params.file);
      try {
        if (!key) throw new FileNotFoundError(request.params.file);
        const data = await home.storage.get(key);
        return reply
          .header('content-type', 'image/png')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(data);
      } catch (error) {
        if (error instanceof FileNotFoundError)
          return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
        throw error;
      }
    });
  },
});
