import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { SandboxFlowControl } from './sandbox-flow-control.ts';
import { isMainlandMobile } from './sms.types.ts';
import type { SmsOutbox } from './sms-outbox.ts';
import { parseTc3Authorization, signTc3, tc3Date } from './tencent.signature.ts';

export interface TencentSmsSandboxOptions {
  /** SecretId -> SecretKey pairs the sandbox accepts. */
  secrets: Record<string, string>;
  /** SmsSdkAppIds, sign names and template ids that count as approved. */
  appIds: string[];
  signNames: string[];
  templateIds: string[];
  outbox: SmsOutbox;
  /** Minimum seconds between two messages to one number (Tencent's 30-second rule); 0 disables. */
  minIntervalSeconds?: number;
  now?: () => Date;
}

/** Tencent refuses requests whose X-TC-Timestamp is more than 5 minutes from its clock. */
const TIMESTAMP_WINDOW_SECONDS = 5 * 60;

interface SendSmsBody {
  PhoneNumberSet?: unknown;
  SmsSdkAppId?: unknown;
  SignName?: unknown;
  TemplateId?: unknown;
  TemplateParamSet?: unknown;
  SessionContext?: unknown;
}

/**
 * A loopback sms.tencentcloudapi.com: verifies the TC3-HMAC-SHA256 Authorization over the exact
 * body bytes and the signed headers as received, the timestamp window (TC3 has no nonce: like the
 * real service, an identical request inside the window is not refused), action and version, then
 * applies SendSms's own checks and answers in the API 3.0 shape (HTTP 200 with Response.Error or
 * Response.SendStatusSet). Delivered codes land in the outbox.
 */
export const tencentSmsSandboxPlugin: FastifyPluginAsync<TencentSmsSandboxOptions> = async (
  fastify,
  options,
) => {
  const now = options.now ?? (() => new Date());
  const flow = new SandboxFlowControl(options.minIntervalSeconds ?? 30);

  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );

  const fail = (reply: FastifyReply, code: string, message: string) =>
    reply.code(200).send({ Response: { Error: { Code: code, Message: message }, RequestId: randomUUID() } });

  fastify.post('/', async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const header = (name: string) => {
      const v = request.headers[name];
      return Array.isArray(v) ? v.join(',') : (v ?? '');
    };
    const auth = parseTc3Authorization(header('authorization'));
    if (!auth) return fail(reply, 'AuthFailure.InvalidAuthorization', 'Authorization header is malformed.');
    const timestamp = Number(header('x-tc-timestamp'));
    if (!Number.isInteger(timestamp))
      return fail(reply, 'AuthFailure.InvalidAuthorization', 'X-TC-Timestamp is invalid.');
    const nowMs = now().getTime();
    if (Math.abs(nowMs / 1000 - timestamp) > TIMESTAMP_WINDOW_SECONDS) {
      return fail(
        reply,
        'AuthFailure.SignatureExpire',
        'Signature expired, timestamp is out of the allowed window.',
      );
    }
    const secretKey = options.secrets[auth.secretId];
    if (secretKey === undefined)
      return fail(reply, 'AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
    if (
      auth.service !== 'sms' ||
      auth.date !== tc3Date(timestamp) ||
      !auth.signedHeaders.includes('content-type') ||
      !auth.signedHeaders.includes('host')
    ) {
      return fail(reply, 'AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
    }
    const signedHeaderValues: Record<string, string> = {};
    for (const name of auth.signedHeaders) signedHeaderValues[name] = header(name);
    const expected = signTc3({
      secretId: auth.secretId,
      secretKey,
      service: 'sms',
      timestamp,
      headers: signedHeaderValues,
      payload: raw,
      method: request.method,
    }).signature;
    const a = Buffer.from(expected);
    const b = Buffer.from(auth.signature);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      return fail(reply, 'AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
    }
    if (header('x-tc-action') !== 'SendSms')
      return fail(reply, 'InvalidAction', 'The action does not exist.');
    if (header('x-tc-version') !== '2021-01-11')
      return fail(reply, 'NoSuchVersion', 'The API version does not exist.');
    if (!header('x-tc-region')) return fail(reply, 'MissingParameter', 'The request is missing X-TC-Region.');

    let body: SendSmsBody;
    try {
      body = JSON.parse(raw) as SendSmsBody;
    } catch {
      return fail(reply, 'InvalidParameter', 'The request body is not valid JSON.');
    }
    if (!options.appIds.includes(String(body.SmsSdkAppId ?? ''))) {
      return fail(reply, 'InvalidParameterValue.SdkAppIdNotExist', 'SdkAppId does not exist.');
    }
    if (!options.signNames.includes(String(body.SignName ?? ''))) {
      return fail(reply, 'FailedOperation.SignatureIncorrectOrUnapproved', '签名未审批或格式错误。');
    }
    if (!options.templateIds.includes(String(body.TemplateId ?? ''))) {
      return fail(reply, 'FailedOperation.TemplateIncorrectOrUnapproved', '模板未审批或内容不匹配。');
    }
    const params = body.TemplateParamSet;
    if (!Array.isArray(params) || params.length !== 1 || typeof params[0] !== 'string') {
      return fail(
        reply,
        'FailedOperation.TemplateParamSetNotMatchApprovedTemplate',
        '请求内容与审核通过的模板内容不匹配。',
      );
    }
    const numbers = body.PhoneNumberSet;
    if (!Array.isArray(numbers) || numbers.length === 0 || numbers.length > 200) {
      return fail(reply, 'InvalidParameterValue.IncorrectPhoneNumber', '手机号格式错误。');
    }

    const sentAt = new Date(nowMs).toISOString();
    const statuses = numbers.map((n: unknown) => {
      const number = String(n);
      const local = number.startsWith('+86') ? number.slice(3) : number;
      const base = {
        PhoneNumber: number,
        Fee: 0,
        SessionContext: String(body.SessionContext ?? ''),
        IsoCode: 'CN',
      };
      if (!isMainlandMobile(local)) {
        return {
          ...base,
          SerialNo: '',
          Code: 'InvalidParameterValue.IncorrectPhoneNumber',
          Message: '手机号格式错误',
        };
      }
      if (!flow.tryTake(local, nowMs)) {
        return {
          ...base,
          SerialNo: '',
          Code: 'LimitExceeded.PhoneNumberThirtySecondLimit',
          Message: '单个手机号30秒内下发短信条数超过设定的上限',
        };
      }
      const serialNo = `2645:${randomUUID().replace(/-/g, '')}`;
      options.outbox.record({
        messageId: serialNo,
        phone: local,
        type: base.SessionContext,
        code: params[0] as string,
        sentAt,
        via: 'tencent',
      });
      return { ...base, Fee: 1, SerialNo: serialNo, Code: 'Ok', Message: 'send success' };
    });
    return reply.code(200).send({ Response: { SendStatusSet: statuses, RequestId: randomUUID() } });
  });
};
