import { describeZodIssue, ErrorCode, ErrorMessage, fail, ok } from '@kyfw/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { toSelf } from '../../lib/self-address.ts';
import { smsDevRoutes } from '../sms/sms.dev-routes.ts';
import type { SmsOutboxMessage } from '../sms/sms.types.ts';
import type { WechatSandboxPlatform } from './wechat.sandbox.ts';
import { httpTransport, injectTransport } from './wechat.transport.ts';
import { WechatDeliveryError, WechatQrExpiredError, WechatQrNotFoundError } from './wechat.types.ts';

export interface WechatDevRoutesOptions {
  wechat: WechatSandboxPlatform;
}

const scanBodySchema = z.object({
  ticket: z
    .string({ error: '请提供二维码 ticket' })
    .trim()
    .min(1, '请提供二维码 ticket')
    .max(256, '二维码 ticket 过长'),
  openId: z
    .string({ error: '请提供 openId' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'openId 只能由字母、数字、下划线和短横线组成，最多 64 位'),
});

/**
 * `POST /__dev/wechat/scan {ticket, openId}`: the sandbox platform delivers a scan of that QR code
 * through our signed callback, as the real platform would; answers once our callback answered.
 * Over HTTP to the callback URL when the app listens, through `inject` otherwise (tests).
 */
export const wechatDevRoutes: FastifyPluginAsync<WechatDevRoutesOptions> = async (fastify, options) => {
  const platform = options.wechat;
  fastify.post('/__dev/wechat/scan', async (request, reply) => {
    const parsed = scanBodySchema.safeParse(request.body ?? {});
    if (!parsed.success)
      return reply.send(fail(ErrorCode.VALIDATION, describeZodIssue(parsed.error.issues[0]!)));
    const viaInject = !fastify.server.listening || !/^https?:\/\//.test(platform.callbackUrl);
    // Over loopback to this very process, whatever host and port PUBLIC_BASE_URL names.
    const transport = viaInject
      ? injectTransport(fastify)
      : (delivery: Parameters<typeof httpTransport>[0]) =>
          httpTransport({ ...delivery, url: toSelf(delivery.url, platform.publicBaseUrl, fastify.server) });
    try {
      const result = await platform.scan(parsed.data, { transport });
      return reply.send(ok({ event: result.event, attempts: result.attempts }, '扫码成功'));
    } catch (err) {
      if (err instanceof WechatQrExpiredError) {
        return reply.send(fail(ErrorCode.QR_EXPIRED, ErrorMessage[ErrorCode.QR_EXPIRED]!));
      }
      if (err instanceof WechatQrNotFoundError)
        return reply.send(fail(ErrorCode.RESOURCE_NOT_FOUND, '二维码不存在'));
      if (err instanceof WechatDeliveryError) {
        request.log.warn({ attempts: err.attempts, reason: err.message }, 'sandbox wechat push failed');
        // Not "expired" and not 服务器繁忙: the QR is still valid and may be scanned again.
        return reply.send(
          fail(ErrorCode.INTERNAL, '扫码事件推送失败：回调接口未正确响应，二维码仍然有效，请重试'),
        );
      }
      throw err;
    }
  });
};

export interface DevAccountRoutesOptions {
  /** The sandbox SMS provider, when SMS_PROVIDER=sandbox. */
  sms?: { lastMessage(phone: string): SmsOutboxMessage | null } | null;
  /** The sandbox WeChat platform, when WECHAT_PROVIDER=sandbox. */
  wechat?: WechatSandboxPlatform | null;
}

/**
 * The accounts dev controls, registered only when sandboxes are in use:
 * `GET /__dev/sms/last?phone=` (with `sms`), `POST /__dev/wechat/scan` plus the sandbox platform's
 * pages and API under `/__sandbox/wechat` (QR image, scan page with 模拟扫码) (with `wechat`).
 */
export const devAccountRoutes: FastifyPluginAsync<DevAccountRoutesOptions> = async (fastify, options) => {
  if (options.sms) await fastify.register(smsDevRoutes, { sms: options.sms });
  if (options.wechat) {
    await fastify.register(wechatDevRoutes, { wechat: options.wechat });
    await fastify.register(options.wechat.plugin, { prefix: options.wechat.mountPath });
  }
};
