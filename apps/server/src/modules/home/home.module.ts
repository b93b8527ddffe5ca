import { API_PREFIX, homeApi, ok } from '@kyfw/contracts';
import QRCode from 'qrcode';
import { route } from '../../lib/route.ts';
import { defineModule } from '../types.ts';
import { createHomeService, type HomeService } from './home.service.ts';

export interface HomeModuleService {
  home: HomeService;
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
  createService({ db, config }): HomeModuleService {
    let png: Promise<Buffer> | undefined;
    return {
      home: createHomeService({ db }),
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
