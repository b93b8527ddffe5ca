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

/**
 * Everything the orders services need besides their arguments. The module builds one per app and
 * registers it under the app's database handle, so that (1) other modules reach the orders API
 * through `getOrdersApi(db)` and (2) the job handlers, which only get a `db`, find the payment
 * providers of the process they run in. A worker process without the app (`npm run worker`)
 * builds its own from the environment (see `runtimeForJob`).
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
  };
}

const runtimes = new WeakMap<Kysely<Database>, OrdersRuntime>();

export function registerOrdersRuntime(runtime: OrdersRuntime): void {
  runtimes.set(runtime.db, runtime);
}

export function unregisterOrdersRuntime(runtime: OrdersRuntime): void {
  if (runtimes.get(runtime.db) === runtime) runtimes.delete(runtime.db);
}

export function findOrdersRuntime(db: Kysely<Database>): OrdersRuntime | undefined {
  return runtimes.get(db);
}

/**
 * The runtime for a job handler: the app's when the worker runs in the API process (embedded
 * mode), else one built once per database from the environment. With sandbox providers a separate
 * worker process uses the sandbox credentials in DATA_DIR and reaches the sandboxes through
 * PUBLIC_BASE_URL, i.e. the API process — it never opens the sandbox books itself.
 */
export async function runtimeForJob(db: Kysely<Database>, logger: Logger): Promise<OrdersRuntime> {
  const found = runtimes.get(db);
  if (found) return found;
  const { loadConfig } = await import('../../config.ts');
  const config = loadConfig();
  let providers: PaymentProviders;
  if (config.orders.paymentProvider === 'sandbox') {
    const setup = await createSandboxPaymentSetup({
      stateDir: paymentSandboxDir(config.dataDir),
      baseUrl: config.publicBaseUrl,
    });
    // Only the credentials are wanted: stop the notifier before it delivers anything from here.
    await setup.sandbox.close();
    providers = {
      wx: createWechatPayProvider(setup.wechatpay, {}),
      ali: createAlipayProvider(setup.alipay, {}),
      sandbox: null,
    };
  } else {
    providers = await createPaymentProviders(config.orders.payment, {
      mode: 'real',
      publicBaseUrl: config.publicBaseUrl,
    });
  }
  const runtime = await createOrdersRuntime({
    db,
    config: config.orders,
    publicBaseUrl: config.publicBaseUrl,
    dataDir: config.dataDir,
    storage: config.storage,
    mail: config.mail,
    now: () => new Date(),
    logger,
    providers,
  });
  runtimes.set(db, runtime);
  return runtime;
}
