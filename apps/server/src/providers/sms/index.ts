import { createAliyunSmsProvider } from './aliyun.adapter.ts';
import { createSandboxSmsProvider, type SandboxSmsProvider } from './sandbox.provider.ts';
import { listSmsConfigProblems, type SmsConfig } from './sms.config.ts';
import type { SmsProvider } from './sms.types.ts';
import { SmsOutbox } from './sms-outbox.ts';
import { createTencentSmsProvider } from './tencent.adapter.ts';

export {
  ALIYUN_SMS_DEFAULT_ENDPOINT,
  type AliyunSmsOptions,
  createAliyunSmsProvider,
} from './aliyun.adapter.ts';
export { type AliyunSmsSandboxOptions, aliyunSmsSandboxPlugin } from './aliyun.sandbox.ts';
export { createSandboxSmsProvider, type SandboxSmsProvider } from './sandbox.provider.ts';
export { listSmsConfigProblems, type SmsConfig, smsConfigSchema } from './sms.config.ts';
export { type SmsDevRoutesOptions, smsDevRoutes } from './sms.dev-routes.ts';
export * from './sms.types.ts';
export { SMS_OUTBOX_FILE, SmsOutbox } from './sms-outbox.ts';
export {
  createTencentSmsProvider,
  TENCENT_SMS_DEFAULT_ENDPOINT,
  TENCENT_SMS_DEFAULT_REGION,
  type TencentSmsOptions,
} from './tencent.adapter.ts';
export { type TencentSmsSandboxOptions, tencentSmsSandboxPlugin } from './tencent.sandbox.ts';

export interface SmsSetup {
  provider: SmsProvider;
  /** Present exactly when SMS_PROVIDER=sandbox: the outbox the dev controls read. */
  sandbox: SandboxSmsProvider | null;
}

/**
 * Builds the configured SMS provider. `stateDir` (e.g. `./data/sandbox`) makes the sandbox outbox
 * durable across restarts; without it the outbox is in memory (tests).
 * @throws Error listing every missing variable when a real provider is chosen without credentials
 */
export function createSmsProvider(
  config: SmsConfig,
  options: { stateDir?: string | null; now?: () => Date } = {},
): SmsSetup {
  const problems = listSmsConfigProblems(config);
  if (problems.length > 0) throw new Error(`SMS configuration incomplete: ${problems.join('; ')}`);
  switch (config.SMS_PROVIDER) {
    case 'aliyun':
      return {
        provider: createAliyunSmsProvider({
          accessKeyId: config.ALIYUN_ACCESS_KEY_ID!,
          accessKeySecret: config.ALIYUN_ACCESS_KEY_SECRET!,
          signName: config.ALIYUN_SMS_SIGN_NAME!,
          templateCode: config.ALIYUN_SMS_TEMPLATE_CODE!,
          endpoint: config.ALIYUN_SMS_ENDPOINT,
        }),
        sandbox: null,
      };
    case 'tencent':
      return {
        provider: createTencentSmsProvider({
          secretId: config.TENCENT_SECRET_ID!,
          secretKey: config.TENCENT_SECRET_KEY!,
          appId: config.TENCENT_SMS_APP_ID!,
          signName: config.TENCENT_SMS_SIGN_NAME!,
          templateId: config.TENCENT_SMS_TEMPLATE_ID!,
          region: config.TENCENT_SMS_REGION,
          endpoint: config.TENCENT_SMS_ENDPOINT,
        }),
        sandbox: null,
      };
    default: {
      const sandbox = createSandboxSmsProvider({
        outbox: new SmsOutbox({ stateDir: options.stateDir }),
        ...(options.now ? { now: options.now } : {}),
      });
      return { provider: sandbox, sandbox };
    }
  }
}
