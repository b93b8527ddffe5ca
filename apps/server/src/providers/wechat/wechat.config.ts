import { z } from 'zod';
import { blankAsUnset } from '../../lib/env.ts';

const optionalString = z.preprocess(blankAsUnset, z.string().trim().optional());

/**
 * Environment fragment for WeChat; merge its `.shape` into the server's env schema.
 * `listWechatConfigProblems` says what the real provider still needs.
 */
export const wechatConfigSchema = z.object({
  WECHAT_PROVIDER: z.enum(['sandbox', 'real']).default('sandbox'),
  WECHAT_APP_ID: optionalString,
  WECHAT_APP_SECRET: optionalString,
  // The platform allows 3-32 letters and digits for the server-configuration Token.
  WECHAT_TOKEN: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[A-Za-z0-9]{3,32}$/)
      .optional(),
  ),
  WECHAT_API_BASE: z.preprocess(blankAsUnset, z.url({ protocol: /^https?$/ }).optional()),
  WECHAT_QR_EXPIRE_SECONDS: z.preprocess(
    blankAsUnset,
    z.coerce.number().int().min(60).max(2_592_000).default(600),
  ),
});

export type WechatConfig = z.infer<typeof wechatConfigSchema>;

/** One message per variable the real provider needs but is missing; empty when complete or sandbox. */
export function listWechatConfigProblems(config: WechatConfig): string[] {
  if (config.WECHAT_PROVIDER !== 'real') return [];
  return (['WECHAT_APP_ID', 'WECHAT_APP_SECRET', 'WECHAT_TOKEN'] as const)
    .filter((k) => !config[k])
    .map((k) => `${k} is required when WECHAT_PROVIDER=real`);
}
