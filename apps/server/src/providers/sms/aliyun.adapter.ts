import { randomUUID } from 'node:crypto';
import { percentEncodeAliyun, signAliyunRpc } from './aliyun.signature.ts';
import {
  normalizePhone,
  SmsInvalidPhoneError,
  type SmsProvider,
  SmsProviderError,
  SmsRateLimitedError,
  type SmsSendInput,
  type SmsSendResult,
} from './sms.types.ts';

export const ALIYUN_SMS_DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** Default https://dysmsapi.aliyuncs.com; the protocol sandbox's URL in tests. */
  endpoint?: string;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
  nonce?: () => string;
}

/** Aliyun codes meaning "this number may not receive more now" (flow control), per the SendSms error list. */
const RATE_LIMIT_CODES = new Set([
  'isv.BUSINESS_LIMIT_CONTROL',
  'isv.DAY_LIMIT_CONTROL',
  'isv.MONTH_LIMIT_CONTROL',
]);
const INVALID_PHONE_CODES = new Set(['isv.MOBILE_NUMBER_ILLEGAL', 'isv.MOBILE_COUNT_OVER_LIMIT']);

interface AliyunAnswer {
  Code?: string;
  Message?: string;
  BizId?: string;
  RequestId?: string;
}

/**
 * Dysmsapi SendSms over RPC style with signature v1 (see aliyun.signature.ts). Sent as a POST form
 * rather than a GET query so that phone numbers and codes stay out of URLs and access logs; the
 * signature covers the method, so both ends agree on POST.
 */
export function createAliyunSmsProvider(options: AliyunSmsOptions): SmsProvider {
  const endpoint = new URL(options.endpoint ?? ALIYUN_SMS_DEFAULT_ENDPOINT);
  if (!endpoint.pathname) endpoint.pathname = '/';
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const nonce = options.nonce ?? (() => randomUUID());
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    kind: 'aliyun',
    async send(input: SmsSendInput): Promise<SmsSendResult> {
      const phone = normalizePhone(input.phone);
      if (!phone) throw new SmsInvalidPhoneError('phone number is not 11 digits', 'aliyun');
      const params: Record<string, string> = {
        AccessKeyId: options.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        // OutId is echoed back in delivery receipts; it carries the purpose for our records.
        OutId: input.purpose,
        PhoneNumbers: phone,
        SignName: options.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: nonce(),
        SignatureVersion: '1.0',
        TemplateCode: input.templateCode ?? options.templateCode,
        TemplateParam: JSON.stringify({ code: input.params.code }),
        // ISO 8601 UTC without milliseconds, as the API documents: 2017-07-12T02:42:19Z.
        Timestamp: now()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      params.Signature = signAliyunRpc('POST', params, options.accessKeySecret);
      const body = Object.entries(params)
        .map(([k, v]) => `${percentEncodeAliyun(k)}=${percentEncodeAliyun(v)}`)
        .join('&');

      let status: number;
      let answer: AliyunAnswer;
      try {
        const res = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = res.status;
        const text = await res.text();
        try {
          answer = JSON.parse(text) as AliyunAnswer;
        } catch {
          throw new SmsProviderError(`Aliyun SendSms answered HTTP ${status} with a non-JSON body`, 'aliyun');
        }
      } catch (err) {
        if (err instanceof SmsProviderError) throw err;
        throw new SmsProviderError(
          `Aliyun SendSms request failed: ${(err as Error).message}`,
          'aliyun',
          undefined,
          {
            cause: err,
          },
        );
      }

      const code = answer.Code ?? `HTTP_${status}`;
      if (code === 'OK' && answer.BizId) return { messageId: answer.BizId };
      const message = `Aliyun SendSms refused: ${code} ${answer.Message ?? ''} (RequestId ${answer.RequestId ?? '-'})`;
      if (RATE_LIMIT_CODES.has(code) || code.startsWith('Throttling')) {
        throw new SmsRateLimitedError(message, 'aliyun', code);
      }
      if (INVALID_PHONE_CODES.has(code)) throw new SmsInvalidPhoneError(message, 'aliyun', code);
      throw new SmsProviderError(message, 'aliyun', code);
    },
  };
}
