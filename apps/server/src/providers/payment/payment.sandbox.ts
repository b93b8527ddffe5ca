import { createPublicKey, generateKeyPair, type KeyObject, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  type AlipaySandboxIdentity,
  alipayDeliveryBuilder,
  alipaySandboxRoutes,
  markAlipayPaid,
} from './alipay.sandbox.ts';
import type { AlipayConfig } from './alipay.ts';
import type { FetchFn } from './http.ts';
import type { PayChannel } from './payment.types.ts';
import { loadPrivateKey } from './rsa.ts';
import { isExpired, type SandboxContext } from './sandbox-context.ts';
import { databaseFaultBook, memoryFaultBook } from './sandbox-faults.repo.ts';
import {
  type DeliveryRecord,
  type SandboxFaults,
  type SandboxLogger,
  SandboxNotifier,
} from './sandbox-notifier.ts';
import { payPageRoutes, SANDBOX_PAY_ERROR_TEXTS, SandboxPayError } from './sandbox-page.ts';
import {
  databaseSandboxStore,
  fileSandboxStore,
  type NotificationStatus,
  type SandboxOrder,
} from './sandbox-store.ts';
import { Secret } from './secret.ts';
import {
  buildWechatNotificationBody,
  markWechatPaid,
  type WechatSandboxIdentity,
  wechatDeliveryBuilder,
  wechatpaySandboxRoutes,
} from './wechatpay.sandbox.ts';
import type { WechatPayConfig } from './wechatpay.ts';

/**
 * The embedded default: both payment platforms simulated in-process, speaking their real
 * protocols over loopback, with credentials generated on first start and kept in the state dir.
 */

/** Where the sandboxes live under the app, unless told otherwise. */
export const DEFAULT_SANDBOX_MOUNT_PATH = '/__sandbox';

/** The four RSA private keys (PEM) of the two platforms; the public halves are derived. */
export interface SandboxKeys {
  /** Our WeChat Pay merchant API key (the adapter signs with it; the sandbox verifies). */
  wechatpayMerchant: string;
  /** The WeChat Pay platform key (the sandbox signs with it; the adapter verifies). */
  wechatpayPlatform: string;
  /** Our Alipay application key. */
  alipayApp: string;
  /** The Alipay platform key. */
  alipayPlatform: string;
}

interface SandboxIds {
  version: 1;
  wechatpay: {
    mchid: string;
    appid: string;
    merchantSerialNo: string;
    platformPublicKeyId: string;
    apiV3Key: string;
  };
  alipay: { appId: string; sellerId: string };
}

export interface SandboxSetupOptions {
  /** Keys, ids and orders persist here (e.g. `${DATA_DIR}/sandbox/payment`); in memory when absent. */
  stateDir?: string;
  /** The app's public origin, e.g. `http://127.0.0.1:3000` (what the adapters and QR codes use). */
  baseUrl: string;
  /** Where `routes` is registered under `baseUrl`; default `/__sandbox`. */
  mountPath?: string;
  /** Inject keys (tests) instead of generating/loading them. */
  keys?: SandboxKeys;
  /** Delays before notification redeliveries (ms); default DEFAULT_RETRY_SCHEDULE_MS. */
  retryScheduleMs?: readonly number[];
  /** The fetch notifications are delivered with (default global fetch). */
  fetch?: FetchFn;
  /** The platforms' clock (ms since the epoch), for expiry and signature timestamps. */
  now?: () => number;
  logger?: SandboxLogger;
  /**
   * Where the books are kept: the database (payment_sandbox_orders), shared by every process on
   * it; books a `stateDir` holds from an earlier version are imported once. Without it the books
   * are in memory and `stateDir` (one process only).
   */
  db?: Kysely<Database>;
}

/** What a sandbox payment did, as `payInSandbox` and `POST /__dev/pay` report it. */
export interface SandboxPayment {
  channel: PayChannel;
  orderNo: string;
  transactionId: string;
  amountFen: number;
  /** ISO-8601. */
  paidAt: string;
}

export interface PaymentSandbox {
  /**
   * One plugin with everything: register it at `mountPath` (default `/__sandbox`); it serves
   * `/wechatpay/v3/…`, `/alipay/gateway.do` and the 模拟支付 page at `/pay/<channel>/<orderNo>`,
   * and stops the notifier when the app closes.
   */
  readonly routes: FastifyPluginAsync;
  /** The parts, for mounting separately: at `${mountPath}/wechatpay`, `/alipay`, `/pay`. */
  readonly wechatpayRoutes: FastifyPluginAsync;
  readonly alipayRoutes: FastifyPluginAsync;
  readonly payPageRoutes: FastifyPluginAsync;
  /**
   * Pays the order as the customer's phone would: books the payment at the platform and starts
   * the signed notification (with retries) to the order's notify_url.
   * @throws SandboxPayError ORDER_NOT_FOUND / ORDER_PAID / ORDER_CLOSED / ORDER_EXPIRED
   */
  payInSandbox(channel: PayChannel, orderNo: string): Promise<SandboxPayment>;
  /** The channel whose QR code for this order was created last (what `/__dev/pay` pays). */
  latestChannel(orderNo: string): Promise<PayChannel | undefined>;
  findOrder(channel: PayChannel, orderNo: string): Promise<SandboxOrder | undefined>;
  /** The phone opened the QR code: Alipay creates its trade (WAIT_BUYER_PAY) now. */
  scan(channel: PayChannel, orderNo: string): Promise<void>;
  /**
   * The fault switches in force per channel (see SandboxFaults): in the database when the books
   * are, so every process sharing them sees and consumes the same faults.
   */
  readFaults(): Promise<Record<PayChannel, SandboxFaults>>;
  /**
   * Sets some faults of one channel (or both when channel is omitted). Without a database the
   * change is made before the promise settles (the provider's tests need not await it).
   */
  setFaults(faults: Partial<SandboxFaults>, channel?: PayChannel): Promise<void>;
  /** Clears all faults. */
  resetFaults(): Promise<void>;
  /** Every delivery attempt since start (newest last, at most 1000). */
  readonly deliveries: readonly DeliveryRecord[];
  /** Resolves when the order's payment notification is acknowledged, dropped or out of retries. */
  notificationSettled(channel: PayChannel, orderNo: string): Promise<NotificationStatus>;
  now(): number;
  /** Stops redelivery timers (pending notifications stay in the state dir for the next start). */
  close(): Promise<void>;
}

export interface SandboxPaymentSetup {
  /** Adapter configuration pointing at the sandbox (feed it to createWechatPayProvider). */
  wechatpay: WechatPayConfig;
  /** Adapter configuration pointing at the sandbox (feed it to createAlipayProvider). */
  alipay: AlipayConfig;
  sandbox: PaymentSandbox;
}

/**
 * Prepares both sandboxes: loads (or on first start generates and saves) the credentials, opens
 * the books, resumes unacknowledged notifications, and returns the adapters' configuration.
 * Works with zero configuration on a fresh machine.
 */
export async function createSandboxPaymentSetup(options: SandboxSetupOptions): Promise<SandboxPaymentSetup> {
  const mountPath = (options.mountPath ?? DEFAULT_SANDBOX_MOUNT_PATH).replace(/\/+$/, '');
  const base = `${options.baseUrl.replace(/\/+$/, '')}${mountPath}`;
  const now = options.now ?? Date.now;
  const { ids, keys } = await loadOrCreateCredentials(options.stateDir, options.keys);

  const wechatIdentity: WechatSandboxIdentity = {
    mchid: ids.wechatpay.mchid,
    appid: ids.wechatpay.appid,
    merchantSerialNo: ids.wechatpay.merchantSerialNo,
    merchantPublicKey: createPublicKey(keys.wechatpayMerchant),
    platformPrivateKey: keys.wechatpayPlatform,
    platformPublicKeyId: ids.wechatpay.platformPublicKeyId,
    apiV3Key: Buffer.from(ids.wechatpay.apiV3Key, 'utf8'),
  };
  const alipayIdentity: AlipaySandboxIdentity = {
    appId: ids.alipay.appId,
    sellerId: ids.alipay.sellerId,
    appPublicKey: createPublicKey(keys.alipayApp),
    alipayPrivateKey: keys.alipayPlatform,
  };

  const booksDir = options.stateDir ? join(options.stateDir, 'books') : undefined;
  const store = options.db
    ? await databaseSandboxStore(options.db, {
        legacyFile: booksDir ? join(booksDir, 'orders.json') : undefined,
        now,
      })
    : fileSandboxStore(booksDir);
  const faults = options.db ? databaseFaultBook(options.db, now) : memoryFaultBook();
  const notifier = new SandboxNotifier({
    store,
    faults,
    builders: {
      wx: wechatDeliveryBuilder(wechatIdentity, now),
      ali: alipayDeliveryBuilder(alipayIdentity, now),
    },
    retryScheduleMs: options.retryScheduleMs,
    fetch: options.fetch,
    logger: options.logger,
  });
  const ctx: SandboxContext = {
    store,
    notifier,
    faults,
    now,
    payPageUrl: (channel, orderNo) => `${base}/pay/${channel}/${encodeURIComponent(orderNo)}`,
  };

  // Payments of one order are serialised by the books (`change` holds the order, in every process
  // sharing them), so a double click, or the page and /__dev/pay at once, cannot pay twice.
  async function pay(channel: PayChannel, orderNo: string): Promise<SandboxPayment> {
    const fate = await notifier.takeFate(channel);
    let booked = false;
    const order = await store
      .change(channel, orderNo, (order) => {
        if (!order) throw new SandboxPayError('ORDER_NOT_FOUND', SANDBOX_PAY_ERROR_TEXTS.ORDER_NOT_FOUND);
        if (order.state === 'SUCCESS' || order.state === 'REFUND') {
          throw new SandboxPayError('ORDER_PAID', SANDBOX_PAY_ERROR_TEXTS.ORDER_PAID);
        }
        if (order.state === 'CLOSED')
          throw new SandboxPayError('ORDER_CLOSED', SANDBOX_PAY_ERROR_TEXTS.ORDER_CLOSED);
        if (isExpired(order, now()))
          throw new SandboxPayError('ORDER_EXPIRED', SANDBOX_PAY_ERROR_TEXTS.ORDER_EXPIRED);
        if (channel === 'wx') {
          markWechatPaid(order, now());
          notifier.prepare(order, fate);
          // The encrypted body is fixed once (same event id on every redelivery) and persisted.
          order.notification!.body = buildWechatNotificationBody(wechatIdentity, order, now());
        } else {
          markAlipayPaid(order, now());
          notifier.prepare(order, fate);
        }
        booked = true;
        return order;
      })
      .finally(async () => {
        if (!booked) await notifier.returnFate(fate);
      });
    notifier.start(order);
    return {
      channel,
      orderNo,
      transactionId: order.transactionId!,
      amountFen: order.amountFen,
      paidAt: order.paidAt!,
    };
  }

  const wechatpayRoutes = wechatpaySandboxRoutes(ctx, wechatIdentity);
  const alipayRoutes = alipaySandboxRoutes(ctx, alipayIdentity);

  const sandbox: PaymentSandbox = {
    wechatpayRoutes,
    alipayRoutes,
    payPageRoutes: payPageRoutes({
      findOrder: (channel, orderNo) => store.get(channel, orderNo),
      scan: (channel, orderNo) => sandbox.scan(channel, orderNo),
      payInSandbox: (channel, orderNo) => sandbox.payInSandbox(channel, orderNo),
      now,
    }),
    routes: async (app: FastifyInstance) => {
      await app.register(sandbox.wechatpayRoutes, { prefix: '/wechatpay' });
      await app.register(sandbox.alipayRoutes, { prefix: '/alipay' });
      await app.register(sandbox.payPageRoutes, { prefix: '/pay' });
      app.addHook('onClose', async () => {
        await sandbox.close();
      });
    },
    payInSandbox: pay,
    async latestChannel(orderNo) {
      const candidates = (
        await Promise.all((['wx', 'ali'] as const).map((channel) => store.get(channel, orderNo)))
      )
        .filter((order): order is SandboxOrder => order !== undefined)
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
      return candidates[0]?.channel;
    },
    findOrder: (channel, orderNo) => store.get(channel, orderNo),
    async scan(channel, orderNo) {
      if (channel !== 'ali') return;
      await store.change(channel, orderNo, (order) => {
        if (order && !order.scanned && order.state === 'NOTPAY') order.scanned = true;
      });
    },
    readFaults: () => faults.read(),
    setFaults: (patch, channel) => faults.set(patch, channel),
    resetFaults: () => faults.reset(),
    deliveries: notifier.deliveries,
    notificationSettled: (channel, orderNo) => notifier.settled(channel, orderNo),
    now,
    close: () => notifier.close(),
  };

  await notifier.resume();

  return {
    wechatpay: {
      mchid: ids.wechatpay.mchid,
      appid: ids.wechatpay.appid,
      merchantSerialNo: ids.wechatpay.merchantSerialNo,
      merchantPrivateKey: keys.wechatpayMerchant,
      platformPublicKeys: { [ids.wechatpay.platformPublicKeyId]: createPublicKey(keys.wechatpayPlatform) },
      apiV3Key: new Secret(ids.wechatpay.apiV3Key),
      baseUrl: `${base}/wechatpay`,
    },
    alipay: {
      appId: ids.alipay.appId,
      appPrivateKey: keys.alipayApp,
      alipayPublicKey: createPublicKey(keys.alipayPlatform),
      sellerId: ids.alipay.sellerId,
      gateway: `${base}/alipay/gateway.do`,
    },
    sandbox,
  };
}

const KEY_FILES: Record<keyof SandboxKeys, string> = {
  wechatpayMerchant: 'wechatpay-merchant-private.pem',
  wechatpayPlatform: 'wechatpay-platform-private.pem',
  alipayApp: 'alipay-app-private.pem',
  alipayPlatform: 'alipay-platform-private.pem',
};

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * Loads the sandbox credentials from `stateDir`, generating whatever is missing (RSA-2048 keys,
 * merchant ids, the APIv3 key) and saving it with owner-only permissions. Public halves are
 * written next to the private keys for people who want to inspect them.
 */
async function loadOrCreateCredentials(
  stateDir: string | undefined,
  injected: SandboxKeys | undefined,
): Promise<{ ids: SandboxIds; keys: Record<keyof SandboxKeys, KeyObject> }> {
  if (stateDir) await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const idsFile = stateDir ? join(stateDir, 'credentials.json') : undefined;
  let ids = idsFile ? await readJson<SandboxIds>(idsFile) : undefined;
  if (!ids) {
    ids = newIds();
    if (idsFile) await writeFileAtomically(idsFile, JSON.stringify(ids, null, 2), 0o600);
  }

  const keys = {} as Record<keyof SandboxKeys, KeyObject>;
  await Promise.all(
    (Object.keys(KEY_FILES) as (keyof SandboxKeys)[]).map(async (name) => {
      if (injected) {
        keys[name] = loadPrivateKey(injected[name]);
        return;
      }
      const file = stateDir ? join(stateDir, KEY_FILES[name]) : undefined;
      const pem = file ? await readText(file) : undefined;
      if (pem) {
        keys[name] = loadPrivateKey(pem);
        return;
      }
      const pair = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
      keys[name] = pair.privateKey;
      if (file) {
        await writeFileAtomically(file, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), 0o600);
        await writeFileAtomically(
          file.replace('-private.pem', '-public.pem'),
          pair.publicKey.export({ type: 'spki', format: 'pem' }),
          0o644,
        );
      }
    }),
  );
  return { ids, keys };
}

function newIds(): SandboxIds {
  const digits = (n: number) => [...randomBytes(n)].map((b) => (b % 10).toString()).join('');
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return {
    version: 1,
    wechatpay: {
      mchid: `19${digits(8)}`,
      appid: `wx${randomBytes(8).toString('hex')}`,
      merchantSerialNo: randomBytes(20).toString('hex').toUpperCase(),
      platformPublicKeyId: `PUB_KEY_ID_01${digits(26)}`,
      apiV3Key: [...randomBytes(32)].map((b) => alnum[b % alnum.length]).join(''),
    },
    alipay: { appId: `2021${digits(12)}`, sellerId: `2088${digits(12)}` },
  };
}

/**
 * Writes `file` whole or not at all (a temporary file renamed over it): in the scaled mode another
 * process (a worker) may read the credentials while the first one is still writing them, and a
 * half-written credentials.json failed its start with "Unexpected end of JSON input".
 */
async function writeFileAtomically(file: string, data: string | Buffer, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, data, { mode });
  await rename(temporary, file);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  const text = await readText(file);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}
