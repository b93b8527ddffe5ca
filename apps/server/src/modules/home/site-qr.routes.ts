import QRCode from 'qrcode';
import type { AppModule } from '../types.ts';

/**
 * GET /images/wechat-qr.png: the footer's QR image (the seeded webInfo.qrCode points here). Until
 * an operator sets webInfo.qrCode to their Official Account's own QR image, it is a real QR code
 * of the site's public address, so a student can open the site on a phone. Drawn once per process.
 */
export const siteQrModule: AppModule = {
  name: 'site-qr',
  prefix: '',
  register(app, { config }) {
    let png: Promise<Buffer> | undefined;
    app.get('/images/wechat-qr.png', async (_request, reply) => {
      png ??= QRCode.toBuffer(config.publicBaseUrl, { type: 'png', width: 240, margin: 1 });
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(await png);
    });
  },
};
