import type { FastifyInstance } from 'fastify';
import { acceptRawBodies, type PayChannel, rawBodyOf } from '../../../providers/payment/index.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { handleNotification } from './notify.service.ts';

/**
 * The platforms' payment notification endpoints (register under /kyfw/web/v1):
 * POST /pay/notify/wx (WeChat Pay v3, JSON, signed headers, encrypted resource) and
 * POST /pay/notify/ali (Alipay, form fields, RSA2). They answer in the platform's own format
 * (WeChat `{"code":"SUCCESS"}` / Alipay `success`), not in the envelope, and read the body raw,
 * since the signatures cover the exact bytes.
 */
export async function notifyRoutes(app: FastifyInstance, options: { rt: OrdersRuntime }): Promise<void> {
  acceptRawBodies(app);
  for (const channel of ['wx', 'ali'] as const satisfies readonly PayChannel[]) {
    app.post(`/pay/notify/${channel}`, async (request, reply) => {
      const ack = await handleNotification(options.rt, channel, {
        headers: request.headers,
        rawBody: rawBodyOf(request.body),
      });
      return reply.code(ack.statusCode).type(ack.contentType).send(ack.body);
    });
  }
}
