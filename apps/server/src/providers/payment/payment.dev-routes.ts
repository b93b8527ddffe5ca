import { ErrorCode, fail, ok, zodFirstMessage } from '@kyfw/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { PaymentSandbox } from './payment.sandbox.ts';
import { SandboxPayError } from './sandbox-page.ts';

export interface DevPaymentRoutesOptions {
  /** The running payment sandbox (`createPaymentProviders(...).sandbox`). */
  sandbox: PaymentSandbox;
}

const channelSchema = z.enum(['wx', 'ali'], { error: '支付方式须为 wx 或 ali' });

const paySchema = z.object({
  orderNo: z.string({ error: '订单号不能为空' }).trim().min(1, { error: '订单号不能为空' }).max(64),
  /** Which platform's QR code to pay; default: the one created last for this order. */
  channel: channelSchema.optional(),
});

const count = z.number().int().min(0).max(1000);
const faultsSchema = z.object({
  channel: channelSchema.optional(),
  /** Clear all faults first. */
  reset: z.boolean().optional(),
  failNext: count.optional(),
  dropNext: count.optional(),
  duplicateNext: count.optional(),
  duplicateConcurrently: z.boolean().optional(),
  delayMs: z.number().int().min(0).max(3_600_000).optional(),
  failApiNext: count.optional(),
  refuseRefundNext: count.optional(),
});

const deliveriesSchema = z.object({ orderNo: z.string().trim().min(1, { error: '订单号不能为空' }).max(64) });

/**
 * The payment sandbox's development controls. Register it only when the sandbox providers are in
 * use, without a prefix (the paths are absolute, like the SMS ones):
 *
 * - `POST /__dev/pay {orderNo, channel?}` -> `ok({channel, orderNo, transactionId, amountFen, paidAt})`:
 *   pays the order exactly as a customer's phone would; the sandbox sends the signed notification.
 *   Without `channel` it pays the platform whose QR code for the order was created last.
 * - `POST /__dev/pay/faults {channel?, reset?, failNext?, dropNext?, duplicateNext?,
 *   duplicateConcurrently?, delayMs?, failApiNext?, refuseRefundNext?}` -> `ok({wx, ali})` (the
 *   faults now in force; refuseRefundNext: the next refunds are refused for good, e.g. the
 *   merchant's balance is too low).
 * - `GET /__dev/pay/deliveries?orderNo=` -> `ok([...])`: the notification attempts for an order.
 *
 * Answers in the envelope itself (HTTP 200) so it does not depend on the app's error handler.
 */
export const devPaymentRoutes: FastifyPluginAsync<DevPaymentRoutesOptions> = async (app, options) => {
  const { sandbox } = options;

  app.post('/__dev/pay', async (request, reply) => {
    const parsed = paySchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.send(fail(ErrorCode.VALIDATION, zodFirstMessage(parsed.error)));
    const { orderNo } = parsed.data;
    const channel = parsed.data.channel ?? (await sandbox.latestChannel(orderNo));
    if (!channel)
      return reply.send(fail(ErrorCode.RESOURCE_NOT_FOUND, '沙箱中没有该订单，请先获取支付二维码'));
    try {
      return reply.send(ok(await sandbox.payInSandbox(channel, orderNo)));
    } catch (error) {
      if (!(error instanceof SandboxPayError)) throw error;
      const code = error.code === 'ORDER_NOT_FOUND' ? ErrorCode.RESOURCE_NOT_FOUND : ErrorCode.CONFLICT;
      return reply.send(fail(code, error.message));
    }
  });

  app.post('/__dev/pay/faults', async (request, reply) => {
    const parsed = faultsSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.send(fail(ErrorCode.VALIDATION, zodFirstMessage(parsed.error)));
    const { channel, reset, ...patch } = parsed.data;
    if (reset) await sandbox.resetFaults();
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    await sandbox.setFaults(defined, channel);
    return reply.send(ok(await sandbox.readFaults()));
  });

  app.get('/__dev/pay/deliveries', async (request, reply) => {
    const parsed = deliveriesSchema.safeParse(request.query ?? {});
    if (!parsed.success) return reply.send(fail(ErrorCode.VALIDATION, zodFirstMessage(parsed.error)));
    return reply.send(ok(sandbox.deliveries.filter((d) => d.orderNo === parsed.data.orderNo)));
  });
};
