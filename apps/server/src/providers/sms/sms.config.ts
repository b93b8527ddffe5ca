import { z } from 'zod';
import { envVar } from '../../lib/env.ts';

/** An optional env string: unset and blank both mean "not given". */
const optionalString = envVar(z.string().trim().optional());
const optionalUrl = envVar(z.url({ protocol: /^https?$/ }).optional());

/**
 * Environment fragment for SMS; merge its `.shape` into the server's env schema. Credentials are
 * optional here so that the fragment stays a plain object; `listSmsConfigProblems` says which are
 * missing for the chosen provider (the factory throws with that list too).
 */
export const smsConfigSchema = z.object({
  SMS_PROVIDER: z.enum(['sandbox', 'aliyun', 'tencent']).default('sandbox'),
  ALIYUN_ACCESS_KEY_ID: optionalString,
  ALIYUN_ACCESS_KEY_SECRET: optionalString,
  ALIYUN_SMS_SIGN_NAME: optionalString,
  ALIYUN_SMS_TEMPLATE_CODE: optionalString,
  ALIYUN_SMS_ENDPOINT: optionalUrl,
  TENCENT_SECRET_ID: optionalString,
  TENCENT_SECRET_KEY: optionalString,
  TENCENT_SMS_APP_ID: optionalString,
  TENCENT_SMS_SIGN_NAME: optionalString,
  TENCENT_SMS_TEMPLATE_ID: optionalString,
  TENCENT_SMS_REGION: optionalString,
  TENCENT_SMS_ENDPOINT: optionalUrl,
});

export type SmsConfig = z.infer<typeof smsConfigSchema>;

const REQUIRED: Record<SmsConfig['SMS_PROVIDER'], (keyof SmsConfig)[]> = {
  sandbox: [],
  aliyun: [
    'ALIYUN_ACCESS_KEY_ID',
    'ALIYUN_ACCESS_KEY_SECRET',
    'ALIYUN_SMS_SIGN_NAME',
    'ALIYUN_SMS_TEMPLATE_CODE',
  ],
  tencent: [
    'TENCENT_SECRET_ID',
    'TENCENT_SECRET_KEY',
    'TENCENT_SMS_APP_ID',
    'TENCENT_SMS_SIGN_NAME',
    'TENCENT_SMS_TEMPLATE_ID',
  ],
};

/** One message per variable the chosen provider needs but is missing; empty when complete. */
export function listSmsConfigProblems(config: SmsConfig): string[] {
  return REQUIRED[config.SMS_PROVIDER]
    .filter((k) => !config[k])
    .map((k) => `${k} is required when SMS_PROVIDER=${config.SMS_PROVIDER}`);
}
