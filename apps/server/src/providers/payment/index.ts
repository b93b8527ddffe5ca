import { readFileSync } from 'node:fs';
import type { Database, Kysely } from '@kyfw/db';
import { type AlipayProvider, createAlipayProvider } from './alipay.ts';
import type { FetchFn } from './http.ts';
import { listPaymentConfigProblems, type PaymentConfig } from './payment.config.ts';
import { createSandboxPaymentSetup, type PaymentSandbox, type SandboxKeys } from './payment.sandbox.ts';
import type { SandboxLogger } from './sandbox-notifier.ts';
import { createWechatPayProvider, type WechatPayProvider } from './wechatpay.ts';

export { alipaySandboxRoutes } from './alipay.sandbox.ts';
export {
  ALIPAY_DEFAULT_GATEWAY,
  type AlipayConfig,
  type AlipayProvider,
  createAlipayProvider,
} from './alipay.ts';
export type { FetchFn, ProviderRuntime } from './http.ts';
export { createInjectFetch } from './inject-fetch.ts';
export { formatFenAsYuan, isAmountFen, parseYuanToFen } from './money.ts';
export { listPaymentConfigProblems, type PaymentConfig, paymentConfigSchema } from './payment.config.ts';
export { type DevPaymentRoutesOptions, devPaymentRoutes } from './payment.dev-routes.ts';
export {
  createSandboxPaymentSetup,
  DEFAULT_SANDBOX_MOUNT_PATH,
  type PaymentSandbox,
  type SandboxKeys,
  type SandboxPayment,
  type SandboxPaymentSetup,
  type SandboxSetupOptions,
} from './payment.sandbox.ts';
export * from './payment.types.ts';
export { acceptRawBodies, rawBodyOf } from './raw-body.ts';
export {
  DEFAULT_RETRY_SCHEDULE_MS,
  type DeliveryRecord,
  type SandboxFaults,
  type SandboxLogger,
} from './sandbox-notifier.ts';
export { PAY_PAGE_TEXTS, SandboxPayError, type SandboxPayErrorCode } from './sandbox-page.ts';
export { Secret } from './secret.ts';
export { wechatpaySandboxRoutes } from './wechatpay.sandbox.ts';
export {
  createWechatPayProvider,
  WECHATPAY_DEFAULT_BASE_URL,
  type WechatPayConfig,
  type WechatPayProvider,
} from './wechatpay.ts';

export interface PaymentProvidersOptions {
  /** `sandbox`: both platforms simulated in-process (embedded default). `real`: the platforms. */
  mode: 'sandbox' | 'real';
  /** Sandbox keys and books, e.g. `${DATA_DIR}/sandbox/payment`; in memory when absent (tests). */
  stateDir?: string | null;
  /** PUBLIC_BASE_URL: in sandbox mode the adapters call `${publicBaseUrl}/__sandbox/…` and QR codes open `${publicBaseUrl}/__sandbox/pay/…`. */
  publicBaseUrl: string;
  /** Transport for the adapters and the sandbox notifier (default global fetch; see createInjectFetch). */
  fetch?: FetchFn;
  /** Sandbox notification retry delays (PAY_SANDBOX_NOTIFY_RETRY_MS wins when set). */
  retryScheduleMs?: readonly number[];
  /** Sandbox delivery log lines (never bodies or keys). */
  logger?: SandboxLogger;
  /** Injected sandbox keys instead of generated ones (tests). */
  sandboxKeys?: SandboxKeys;
  /** Clock for adapters and sandbox (tests). */
  now?: () => number;
  /** The sandbox keeps its books here (every process on the database sees them); else in stateDir. */
  db?: Kysely<Database>;
}

export interface PaymentProviders {
  wx: WechatPayProvider;
  ali: AlipayProvider;
  /** Present exactly in sandbox mode: mount `sandbox.routes` at /__sandbox and `devPaymentRoutes`. */
  sandbox: PaymentSandbox | null;
}

/**
 * Builds both payment providers. Real mode reads the key files named by the configuration (a
 * missing or unreadable one fails here, at boot); sandbox mode loads or creates the sandbox
 * credentials under `stateDir` and points the same adapters at the in-process sandboxes.
 * @throws Error listing every missing/bad variable (names only, never values)
 */
export async function createPaymentProviders(
  config: PaymentConfig,
  options: PaymentProvidersOptions,
): Promise<PaymentProviders> {
  const runtime = { fetch: options.fetch, now: options.now };
  if (options.mode === 'sandbox') {
    const setup = await createSandboxPaymentSetup({
      stateDir: options.stateDir ?? undefined,
      baseUrl: options.publicBaseUrl,
      keys: options.sandboxKeys,
      retryScheduleMs: config.PAY_SANDBOX_NOTIFY_RETRY_MS ?? options.retryScheduleMs,
      fetch: options.fetch,
      logger: options.logger,
      now: options.now,
      db: options.db,
    });
    return {
      wx: createWechatPayProvider(setup.wechatpay, runtime),
      ali: createAlipayProvider(setup.alipay, runtime),
      sandbox: setup.sandbox,
    };
  }

  const problems = listPaymentConfigProblems(config, 'real');
  const readKey = (variable: keyof PaymentConfig, path: string | undefined): string => {
    if (!path) return '';
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      problems.push(`${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return '';
    }
  };
  const wechatPrivate = readKey('WECHATPAY_PRIVATE_KEY_PATH', config.WECHATPAY_PRIVATE_KEY_PATH);
  const wechatPublic = readKey('WECHATPAY_PUBLIC_KEY_PATH', config.WECHATPAY_PUBLIC_KEY_PATH);
  const alipayPrivate = readKey('ALIPAY_PRIVATE_KEY_PATH', config.ALIPAY_PRIVATE_KEY_PATH);
  const alipayPublic = readKey('ALIPAY_PUBLIC_KEY_PATH', config.ALIPAY_PUBLIC_KEY_PATH);
  if (problems.length > 0)
    throw new Error(`Payment configuration incomplete:\n  - ${problems.join('\n  - ')}`);

  const build = <T>(variables: string, make: () => T): T | undefined => {
    try {
      return make();
    } catch (error) {
      // The adapters' own errors name the problem, never the key.
      problems.push(`${variables}: ${(error as Error).message}`);
      return undefined;
    }
  };
  const wx = build('WECHATPAY_PRIVATE_KEY_PATH / WECHATPAY_PUBLIC_KEY_PATH', () =>
    createWechatPayProvider(
      {
        mchid: config.WECHATPAY_MCHID!,
        appid: config.WECHATPAY_APPID!,
        merchantSerialNo: config.WECHATPAY_SERIAL_NO!,
        merchantPrivateKey: wechatPrivate,
        platformPublicKeys: { [config.WECHATPAY_PUBLIC_KEY_ID!]: wechatPublic },
        apiV3Key: config.WECHATPAY_APIV3_KEY!,
        baseUrl: config.WECHATPAY_BASE_URL,
      },
      runtime,
    ),
  );
  const ali = build('ALIPAY_PRIVATE_KEY_PATH / ALIPAY_PUBLIC_KEY_PATH', () =>
    createAlipayProvider(
      {
        appId: config.ALIPAY_APP_ID!,
        appPrivateKey: alipayPrivate,
        alipayPublicKey: alipayPublic,
        sellerId: config.ALIPAY_SELLER_ID,
        gateway: config.ALIPAY_GATEWAY,
      },
      runtime,
    ),
  );
  if (!wx || !ali) throw new Error(`Payment configuration invalid:\n  - ${problems.join('\n  - ')}`);
  return { wx, ali, sandbox: null };
}
