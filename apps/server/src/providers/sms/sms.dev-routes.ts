import { describeZodIssue, ErrorCode, fail, ok, phoneSchema } from '@kyfw/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { SmsOutboxMessage } from './sms.types.ts';

export interface SmsDevRoutesOptions {
  /** The sandbox SMS provider (or anything that reads its outbox). */
  sms: { lastMessage(phone: string): SmsOutboxMessage | null };
}

const lastQuerySchema = z.object({ phone: phoneSchema });

/**
 * `GET /__dev/sms/last?phone=<phone>` -> `ok({ code, type, sentAt })`: the last code the sandbox
 * sent to that phone. Register only when SMS_PROVIDER=sandbox. Answers in the envelope itself
 * (HTTP 200) so it does not depend on the app's error handler.
 */
export const smsDevRoutes: FastifyPluginAsync<SmsDevRoutesOptions> = async (fastify, options) => {
  fastify.get('/__dev/sms/last', async (request, reply) => {
    const parsed = lastQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success)
      return reply.send(fail(ErrorCode.VALIDATION, describeZodIssue(parsed.error.issues[0]!)));
    const message = options.sms.lastMessage(parsed.data.phone);
    if (!message) return reply.send(fail(ErrorCode.RESOURCE_NOT_FOUND, '沙箱中没有发往该手机号的短信'));
    return reply.send(ok({ code: message.code, type: message.type, sentAt: message.sentAt }));
  });
};
