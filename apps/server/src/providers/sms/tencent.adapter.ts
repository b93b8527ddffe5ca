import {
  normalizePhone,
  SmsInvalidPhoneError,
  type SmsProvider,
  SmsProviderError,
  SmsRateLimitedError,
  type SmsSendInput,
  type SmsSendResult,
} from './sms.types.ts';
import { signTc3 } from './tencent.signature.ts';

export const TENCENT_SMS_DEFAULT_ENDPOINT = 'https://sms.tencentcloudapi.com';
export const TENCENT_SMS_DEFAULT_REGION = 'ap-guangzhou';
const TENCENT_SMS_VERSION = '2021-01-11';
const CONTENT_TYPE = 'application/json; charset=utf-8';

export interface TencentSmsOptions {
  secretId: string;
  secretKey: string;
  /** SmsSdkAppId, e.g. 1400006666. */
  appId: string;
  signName: string;
  templateId: string;
  /** Default ap-guangzhou. */
  region?: string;
  /** Default https://sms.tencentcloudapi.com; the protocol sandbox's URL in tests. */
  endpoint?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
}

interface TencentSendStatus {
  SerialNo?: string;
  PhoneNumber?: string;
  Code?: string;
  Message?: string;
}

interface TencentAnswer {
  Response?: {
    SendStatusSet?: TencentSendStatus[];
    Error?: { Code?: string; Message?: string };
    RequestId?: string;
  };
}

/** Per-number codes of Tencent's flow control (SendStatusSet[].Code or Error.Code). */
function isRateLimitCode(code: string): boolean {
  return code.startsWith('LimitExceeded.PhoneNumber') || code === 'LimitExceeded.DeliveryFrequencyLimit';
}

function isInvalidPhoneCode(code: string): boolean {
  return (
    code === 'InvalidParameterValue.IncorrectPhoneNumber' ||
    code === 'FailedOperation.PhoneNumberInBlacklist' ||
    code === 'UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber'
  );
}

/**
 * Tencent Cloud SMS SendSms, API 3.0 (Version 2021-01-11) signed with TC3-HMAC-SHA256 (see
 * tencent.signature.ts). Tencent answers HTTP 200 for business failures: the outcome is in
 * Response.Error or in the per-number SendStatusSet.
 */
export function createTencentSmsProvider(options: TencentSmsOptions): SmsProvider {
  const endpoint = new URL(options.endpoint ?? TENCENT_SMS_DEFAULT_ENDPOINT);
  const region = options.region ?? TENCENT_SMS_DEFAULT_REGION;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;

  return {
    kind: 'tencent',
    async send(input: SmsSendInput): Promise<SmsSendResult> {
      const phone = normalizePhone(input.phone);
      if (!phone) throw new SmsInvalidPhoneError('phone number is not 11 digits', 'tencent');
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${phone}`],
        SmsSdkAppId: options.appId,
        SignName: options.signName,
        TemplateId: input.templateCode ?? options.templateId,
        TemplateParamSet: [input.params.code],
        // Echoed back by Tencent in receipts; it carries the purpose for our records.
        SessionContext: input.purpose,
      });
      const timestamp = Math.floor(now().getTime() / 1000);
      const { authorization } = signTc3({
        secretId: options.secretId,
        secretKey: options.secretKey,
        service: 'sms',
        timestamp,
        headers: { 'content-type': CONTENT_TYPE, host: endpoint.host, 'x-tc-action': 'SendSms' },
        payload,
      });

      let answer: TencentAnswer;
      try {
        const res = await doFetch(endpoint, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': CONTENT_TYPE,
            'x-tc-action': 'SendSms',
            'x-tc-version': TENCENT_SMS_VERSION,
            'x-tc-timestamp': String(timestamp),
            'x-tc-region': region,
          },
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        try {
          answer = JSON.parse(text) as TencentAnswer;
        } catch {
          throw new SmsProviderError(
            `Tencent SendSms answered HTTP ${res.status} with a non-JSON body`,
            'tencent',
          );
        }
      } catch (err) {
        if (err instanceof SmsProviderError) throw err;
        throw new SmsProviderError(
          `Tencent SendSms request failed: ${(err as Error).message}`,
          'tencent',
          undefined,
          {
            cause: err,
          },
        );
      }

      const response = answer.Response;
      const requestId = response?.RequestId ?? '-';
      const error = response?.Error;
      const status = response?.SendStatusSet?.[0];
      const code = error?.Code ?? status?.Code ?? 'EmptyResponse';
      if (!error && status && code === 'Ok' && status.SerialNo) return { messageId: status.SerialNo };
      const message = `Tencent SendSms refused: ${code} ${error?.Message ?? status?.Message ?? ''} (RequestId ${requestId})`;
      if (isRateLimitCode(code)) throw new SmsRateLimitedError(message, 'tencent', code);
      if (isInvalidPhoneCode(code)) throw new SmsInvalidPhoneError(message, 'tencent', code);
      throw new SmsProviderError(message, 'tencent', code);
    },
  };
}
