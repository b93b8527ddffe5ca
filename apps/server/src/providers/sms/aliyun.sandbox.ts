import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { signAliyunRpc } from './aliyun.signature.ts';
import { NonceWindow, SandboxFlowControl } from './sandbox-flow-control.ts';
import { isMainlandMobile } from './sms.types.ts';
import type { SmsOutbox } from './sms-outbox.ts';

export interface AliyunSmsSandboxOptions {
  /** AccessKeyId -> AccessKeySecret pairs the sandbox accepts. */
  accessKeys: Record<string, string>;
  /** Sign names and template codes that count as approved; others get the isv.* refusal. */
  signNames: string[];
  templateCodes: string[];
  outbox: SmsOutbox;
  /** Minimum seconds between two messages to one number (Aliyun's default flow control); 0 disables. */
  minIntervalSeconds?: number;
  now?: () => Date;
}

/** Aliyun refuses timestamps further than 15 minutes from its clock and nonces reused within that window. */
const TIMESTAMP_WINDOW_SECONDS = 15 * 60;

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * A loopback Dysmsapi: accepts SendSms as GET query or POST form, verifies the RPC v1 signature,
 * timestamp, nonce, sign name, template and number the way Aliyun documents, and delivers the code
 * into the outbox. Mount it under any prefix and point the Aliyun adapter's endpoint at it.
 */
export const aliyunSmsSandboxPlugin: FastifyPluginAsync<AliyunSmsSandboxOptions> = async (
  fastify,
  options,
) => {
  const now = options.now ?? (() => new Date());
  const nonces = new NonceWindow(TIMESTAMP_WINDOW_SECONDS);
  const flow = new SandboxFlowControl(options.minIntervalSeconds ?? 60);

  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );

  const answer = (reply: FastifyReply, status: number, code: string, message: string, extra: object = {}) =>
    reply
      .code(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ RequestId: randomUUID().toUpperCase(), Code: code, Message: message, ...extra });

  fastify.route({
    method: ['GET', 'POST'],
    url: '/',
    handler: async (request, reply) => {
      const raw =
        request.method === 'POST'
          ? typeof request.body === 'string'
            ? request.body
            : ''
          : ((request.raw.url ?? '').split('?')[1] ?? '');
      const params: Record<string, string> = {};
      for (const [k, v] of new URLSearchParams(raw)) params[k] = v;

      for (const name of [
        'AccessKeyId',
        'Action',
        'Signature',
        'SignatureMethod',
        'SignatureNonce',
        'SignatureVersion',
        'Timestamp',
        'Version',
      ]) {
        if (!params[name])
          return answer(reply, 400, `Missing${name}`, `${name} is mandatory for this action.`);
      }
      const secret = options.accessKeys[params.AccessKeyId!];
      if (secret === undefined) {
        return answer(reply, 404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
      }
      if (params.SignatureMethod !== 'HMAC-SHA1' || params.SignatureVersion !== '1.0') {
        return answer(
          reply,
          400,
          'InvalidSignatureMethod',
          'Only HMAC-SHA1 signature version 1.0 is supported.',
        );
      }
      const ts = params.Timestamp!;
      const tsMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(ts) ? Date.parse(ts) : Number.NaN;
      if (Number.isNaN(tsMs)) {
        return answer(
          reply,
          400,
          'InvalidTimeStamp.Format',
          'Specified time stamp or date value is not well formatted.',
        );
      }
      const nowMs = now().getTime();
      if (Math.abs(nowMs - tsMs) > TIMESTAMP_WINDOW_SECONDS * 1000) {
        return answer(
          reply,
          400,
          'InvalidTimeStamp.Expired',
          'Specified time stamp or date value is expired.',
        );
      }
      const expected = signAliyunRpc(request.method, params, secret);
      if (!safeEqual(expected, params.Signature!)) {
        return answer(
          reply,
          400,
          'SignatureDoesNotMatch',
          'Specified signature is not matched with our calculation.',
        );
      }
      if (!nonces.tryUse(params.SignatureNonce!, nowMs)) {
        return answer(reply, 400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
      }
      if (params.Action !== 'SendSms') {
        return answer(
          reply,
          404,
          'InvalidAction.NotFound',
          'Specified api is not found, please check your url and method.',
        );
      }
      if (params.Version !== '2017-05-25') {
        return answer(reply, 400, 'InvalidVersion', 'Specified parameter Version is not valid.');
      }

      const phone = params.PhoneNumbers ?? '';
      if (!phone) return answer(reply, 200, 'isv.MOBILE_NUMBER_ILLEGAL', '手机号码格式错误');
      if (!options.signNames.includes(params.SignName ?? '')) {
        return answer(reply, 200, 'isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
      }
      if (!options.templateCodes.includes(params.TemplateCode ?? '')) {
        return answer(reply, 200, 'isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
      }
      let templateParam: unknown;
      try {
        templateParam = JSON.parse(params.TemplateParam ?? '');
      } catch {
        return answer(reply, 200, 'isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
      }
      const code = (templateParam as { code?: unknown } | null)?.code;
      if (typeof code !== 'string')
        return answer(reply, 200, 'isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
      // One number per request in our use; several comma-separated numbers are each checked.
      const phones = phone.split(',');
      if (!phones.every(isMainlandMobile))
        return answer(reply, 200, 'isv.MOBILE_NUMBER_ILLEGAL', '手机号码格式错误');
      for (const p of phones) {
        if (!flow.tryTake(p, nowMs))
          return answer(reply, 200, 'isv.BUSINESS_LIMIT_CONTROL', '触发分钟级流控Permits:1');
      }

      const bizId = `${Math.floor(nowMs / 1000)}${randomUUID().replace(/-/g, '').slice(0, 8)}^0`;
      for (const p of phones) {
        options.outbox.record({
          messageId: bizId,
          phone: p,
          type: params.OutId ?? '',
          code,
          sentAt: new Date(nowMs).toISOString(),
          via: 'aliyun',
        });
      }
      return answer(reply, 200, 'OK', 'OK', { BizId: bizId });
    },
  });
};
