import { z } from 'zod';
import { blankAsUnset } from '../../lib/env.ts';
import { Secret } from './secret.ts';

const optionalString = z.preprocess(blankAsUnset, z.string().trim().optional());
const optionalUrl = z.preprocess(blankAsUnset, z.url({ protocol: /^https?$/ }).optional());

/**
 * Environment fragment for payments; merge its `.shape` into the server's env schema. Everything
 * is optional so that the sandbox (the embedded default) needs nothing; `listPaymentConfigProblems`
 * says what real providers miss, and `createPaymentProviders` throws with that list.
 *
 * The APIv3 key becomes a `Secret` (prints as `[redacted]`), and no rule here can fail on it, so a
 * config error message can never echo it.
 */
export const paymentConfigSchema = z.object({
  WECHATPAY_MCHID: optionalString,
  WECHATPAY_APPID: optionalString,
  WECHATPAY_SERIAL_NO: optionalString,
  WECHATPAY_PRIVATE_KEY_PATH: optionalString,
  WECHATPAY_PUBLIC_KEY_PATH: optionalString,
  WECHATPAY_PUBLIC_KEY_ID: optionalString,
  WECHATPAY_APIV3_KEY: z.preprocess(
    blankAsUnset,
    z
      .string()
      .optional()
      .transform((value) => (value === undefined ? undefined : new Secret(value))),
  ),
  WECHATPAY_BASE_URL: optionalUrl,
  ALIPAY_APP_ID: optionalString,
  ALIPAY_PRIVATE_KEY_PATH: optionalString,
  ALIPAY_PUBLIC_KEY_PATH: optionalString,
  ALIPAY_SELLER_ID: optionalString,
  ALIPAY_GATEWAY: optionalUrl,
  PAY_SANDBOX_NOTIFY_RETRY_MS: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^\s*\d{1,9}\s*(,\s*\d{1,9}\s*){0,49}$/, {
        error: 'must be up to 50 comma-separated delays in milliseconds, e.g. 1500,1500,3000,18000',
      })
      .optional()
      .transform((value) => value?.split(',').map((part) => Number(part.trim()))),
  ),
});

export type PaymentConfig = z.output<typeof paymentConfigSchema>;

const REQUIRED_FOR_REAL: readonly (keyof PaymentConfig)[] = [
  'WECHATPAY_MCHID',
  'WECHATPAY_APPID',
  'WECHATPAY_SERIAL_NO',
  'WECHATPAY_PRIVATE_KEY_PATH',
  'WECHATPAY_PUBLIC_KEY_PATH',
  'WECHATPAY_PUBLIC_KEY_ID',
  'WECHATPAY_APIV3_KEY',
  'ALIPAY_APP_ID',
  'ALIPAY_PRIVATE_KEY_PATH',
  'ALIPAY_PUBLIC_KEY_PATH',
];

/**
 * One message per missing or malformed variable for the given mode; empty when complete.
 * Messages name variables, never their values.
 */
export function listPaymentConfigProblems(config: PaymentConfig, mode: 'sandbox' | 'real'): string[] {
  if (mode === 'sandbox') return [];
  const problems = REQUIRED_FOR_REAL.filter((k) => config[k] === undefined).map(
    (k) => `${k} is required when PROVIDERS=real`,
  );
  const apiV3Key = config.WECHATPAY_APIV3_KEY?.reveal();
  if (apiV3Key !== undefined && Buffer.byteLength(apiV3Key, 'utf8') !== 32) {
    problems.push('WECHATPAY_APIV3_KEY must be the 32-character APIv3 key set in the merchant platform');
  }
  if (
    config.WECHATPAY_PUBLIC_KEY_ID !== undefined &&
    !config.WECHATPAY_PUBLIC_KEY_ID.startsWith('PUB_KEY_ID_')
  ) {
    problems.push('WECHATPAY_PUBLIC_KEY_ID must be the WeChat Pay public key id, PUB_KEY_ID_…');
  }
  return problems;
}
