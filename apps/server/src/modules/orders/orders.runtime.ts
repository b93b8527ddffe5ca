import path from 'node:path';
import type { Database, Kysely } from '@kyfw/db';
import type { Logger } from '../../lib/logger.ts';
import type { StorageConfig } from '../../lib/storage/index.ts';
import { createMailProvider, type MailConfig, type MailProvider } from '../../providers/mail/index.ts';
import {
  createAlipayProvider,
  createPaymentProviders,
  createSandboxPaymentSetup,
  createWechatPayProvider,
  type FetchFn,
  type PaymentProviders,
  type SandboxKeys,
} from '../../providers/payment/index.ts';
import { createFileStore, type FileStore } from './files.ts';
import type { OrdersConfig } from './orders.config.ts';
import { createPaidHooks, createRefundHooks, type PaidHooks, type RefundHooks } from './paid-hooks.ts';

/**
 * Everything the orders services need besides their arguments, built once per process by the
 * orders module's createService (services.ts). Other modules reach orders through
 * `services.orders.api`; the job handlers through `ctx.services.orders.runtime`.
 */
export interface OrdersRuntime {
  db: Kysely<Database>;
  config: OrdersConfig;
  /** PUBLIC_BASE_URL without a trailing slash. */
  publicBaseUrl: string;
  providers: PaymentProviders;
  files: FileStore;
  /** Sends the issued invoices (SMTP, or the sandbox outbox). */
  mail: MailProvider;
  now: () => Date;
  logger: OrdersLogger;
  /** The services' onPaid handlers (registered by their modules' hooks). */
  paidHooks: PaidHooks;
  /** The services' handlers of an operator's full refund (the service ends). */
  refundHooks: RefundHooks;
}

/** What the services log with: the app's logger or a job's (pino either way). */
export type OrdersLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface RuntimeOptions {
  db: Kysely<Database>;
  config: OrdersConfig;
  publicBaseUrl: string;
  dataDir: string;
  /** Where the files go (config.storage); default DATA_DIR/files. */
  storage?: StorageConfig;
  /** How invoices are e-mailed (config.mail); default the sandbox outbox under DATA_DIR/sandbox. */
  mail?: MailConfig;
  now: () => Date;
  logger: OrdersLogger;
  /** Instead of building them from the configuration (tests). */
  providers?: PaymentProviders;
  /** Transport for the adapters and the sandbox notifier (tests: createInjectFetch). */
  fetch?: FetchFn;
  sandboxKeys?: SandboxKeys;
}

/** Where the payment sandboxes keep keys and books: `${DATA_DIR}/sandbox/payment`. */
export function paymentSandboxDir(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'payment');
}

export async function createOrdersRuntime(options: RuntimeOptions): Promise<OrdersRuntime> {
  const providers =
    options.providers ??
    (await createPaymentProviders(options.config.payment, {
      mode: options.config.paymentProvider,
      stateDir: paymentSandboxDir(options.dataDir),
      publicBaseUrl: options.publicBaseUrl,
      fetch: options.fetch,
      sandboxKeys: options.sandboxKeys,
      logger: options.logger,
      now: () => options.now().getTime(),
      db: options.db,
    }));
  return {
    db: options.db,
    config: options.config,
    publicBaseUrl: options.publicBaseUrl,
    providers,
    files: createFileStore(options.dataDir, options.storage),
    mail: createMailProvider(options.mail ?? { MAIL_PROVIDER: 'sandbox', SMTP_PORT: 465 }, {
      stateDir: path.join(options.dataDir, 'sandbox'),
    }).provider,
    now: options.now,
    logger: options.logger,
    paidHooks: createPaidHooks(),
    refundHooks: createRefundHooks(),
  };
}

/**
 * The payment providers of a worker process without the app (`npm run worker`). With sandbox
 * providers it uses the sandbox credentials in DATA_DIR and reaches the sandboxes through
 * PUBLIC_BASE_URL, i.e. the API process — it never opens the sandbox books itself.
 */
export async function createWorkerPaymentProviders(
  options: Pick<RuntimeOptions, 'config' | 'dataDir' | 'publicBaseUrl'>,
): Promise<PaymentProviders> {
  if (options.config.paymentProvider !== 'sandbox') {
    return createPaymentProviders(options.config.payment, {
      mode: 'real',
      publicBaseUrl: options.publicBaseUrl,
    });
  }
  const setup = await createSandboxPaymentSetup({
    stateDir: paymentSandboxDir(options.dataDir),
    baseUrl: options.publicBaseUrl,
  });
  // Only the credentials are wanted: stop the notifier before it delivers anything from here.
  await setup.sandbox.close();
  return {
    wx: createWechatPayProvider(setup.wechatpay, {}),
    ali: createAlipayProvider(setup.alipay, {}),
    sandbox: null,
  };
}
