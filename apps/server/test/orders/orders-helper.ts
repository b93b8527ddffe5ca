import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OPERATOR_SCOPES } from '@kyfw/contracts';
import { createDb, type Database, type DbHandle, type Kysely, migrate, seed } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.ts';
import { createWorker } from '../../src/jobs/index.ts';
import { enqueue } from '../../src/jobs/queue.ts';
import type { Logger } from '../../src/lib/logger.ts';
import type { OrdersApi } from '../../src/modules/orders/orders.api.ts';
import { ordersJobDefinitions } from '../../src/modules/orders/orders.jobs.ts';
import type { OrdersRuntime } from '../../src/modules/orders/orders.runtime.ts';
import { createInjectFetch, type PaymentSandbox } from '../../src/providers/payment/index.ts';
import type { ServiceRoot } from '../../src/services.ts';
import {
  call,
  createClock,
  type Envelope,
  registerUser,
  type TestClock,
} from '../accounts/accounts-helper.ts';
import { startTestApp, testConfig } from '../helper.ts';
import { TEST_SANDBOX_KEYS } from '../providers/payment/helpers.ts';

export { call, createClock, type Envelope, HOUR, MINUTE, SECOND } from '../accounts/accounts-helper.ts';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789abcdef';

export interface OrdersTestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  clock: TestClock;
  dataDir: string;
  rt: OrdersRuntime;
  sandbox: PaymentSandbox;
  orders: OrdersApi;
  /** What createServices built (jobs: `createWorker({ …, services: t.root.services })`). */
  root: ServiceRoot;
  /**
   * Sets the LLM sandbox's faults (`POST /__dev/llm/faults`, after a reset): the app's own sandbox,
   * or the external endpoint the app was built against (BuildOptions.llmEndpoint).
   */
  llmFaults(body: Record<string, unknown>): Promise<void>;
  /** Closes the app only (the database and DATA_DIR stay, for a restart). */
  closeApp(): Promise<void>;
  close(): Promise<void>;
}

export interface BuildOptions {
  env?: Record<string, string>;
  clock?: TestClock;
  /** Reuse a DATA_DIR (restart tests); default a fresh temporary one. */
  dataDir?: string;
  /** Reuse a database handle (restart tests); default a fresh test database. */
  db?: DbHandle;
  logger?: Logger;
  /**
   * An OpenAI-compatible endpoint outside the app (LLM_PROVIDER=openai, reached over real loopback
   * HTTP with the global fetch) and how to set its faults; default the app's own sandbox in-process.
   */
  llmEndpoint?: { env: Record<string, string>; faults(body: Record<string, unknown>): Promise<void> };
}

/**
 * The real app (every module) with the payment sandboxes speaking to it in-process: the adapters'
 * API calls and the sandbox's signed notifications go through `inject` (createInjectFetch), so
 * signatures, encryption and acknowledgements are exercised exactly as over the network. Fixed
 * TEST-ONLY sandbox keys (no key generation), fast notification retries, an operator token and a
 * hand-moved clock shared by the app, the adapters and the sandboxes.
 */
export async function buildOrdersApp(options: BuildOptions = {}): Promise<OrdersTestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'kyfw-orders-'));
  const clock = options.clock ?? createClock(new Date().toISOString());
  const handle = options.db ?? (await createTestDb());
  const config = testConfig({
    DATA_DIR: dataDir,
    PASSWORD_SCRYPT_COST: '12',
    SMS_IP_MAX_PER_MINUTE: '1000',
    SMS_IP_MAX_PER_HOUR: '1000',
    SMS_IP_CAPTCHA_AFTER: '100000',
    SMS_IP_MAX_PER_DAY: '1000',
    PAY_SANDBOX_NOTIFY_RETRY_MS: '30,30,30,30',
    OPERATOR_TOKEN,
    // The tests drive every operator endpoint; a deployment grants only what its automation needs.
    OPERATOR_TOKEN_SCOPES: OPERATOR_SCOPES.join(','),
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    ...options.env,
    ...options.llmEndpoint?.env,
  });
  let app: FastifyInstance | undefined;
  const injectFetch = createInjectFetch(() => {
    if (!app) throw new Error('app not built yet');
    return app;
  });
  const started = await startTestApp({
    config,
    db: handle.db,
    clock: clock.now,
    logger: options.logger,
    // The sandboxes (payment, LLM) are reached in-process: the app does not listen.
    providers: {
      payment: { fetch: injectFetch, sandboxKeys: TEST_SANDBOX_KEYS },
      llmFetch: options.llmEndpoint ? fetch : injectFetch,
    },
  });
  const built = started.app;
  app = built;
  // A goods row of a service no other module hooks into (as an operator could add), so these tests
  // see only their own onPaid handlers. Same price as 本科查重: ¥2.00 per 1,000 characters.
  await handle.db
    .insertInto('goods')
    .values({
      id: 'test_tech_search',
      service_type: 'tech_search',
      name: '科技查新（测试）',
      unit_price_fen: 200,
      unit_size: 1000,
      unit: '千字',
      min_quantity: 1,
      max_quantity: 300_000,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const rt = started.root.services.orders.runtime;
  const closeApp = () => started.close();
  return {
    app: built,
    db: handle.db,
    config,
    clock,
    dataDir,
    rt,
    sandbox: rt.providers.sandbox!,
    orders: started.root.services.orders.api,
    root: started.root,
    closeApp,
    async llmFaults(body) {
      if (options.llmEndpoint) {
        await options.llmEndpoint.faults({ reset: true });
        if (Object.keys(body).length > 0) await options.llmEndpoint.faults(body);
        return;
      }
      await built.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { reset: true } });
      if (Object.keys(body).length > 0)
        await built.inject({ method: 'POST', url: '/__dev/llm/faults', payload: body });
    },
    async close() {
      await closeApp();
      await handle.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An embedded PGlite database persisted under `${dataDir}/pglite` (restart tests). */
export async function openPersistentDb(dataDir: string): Promise<DbHandle> {
  const handle = await createDb({ dataDir });
  await migrate(handle.db);
  await seed(handle.db);
  return handle;
}

/**
 * A registered account. Registration gives a free check (accounts/benefits.ts); with the database
 * at hand it is marked used, so the account pays like most do — tests of the free check give it
 * back with `grantFreeCheck` (check-helper.ts).
 */
export async function newUser(t: {
  app: FastifyInstance;
  db?: Kysely<Database>;
}): Promise<{ token: string; userId: string }> {
  const { token } = await registerUser(t);
  const info = await call<{ id: string }>(t, '/getUserInfo', {}, { token });
  if (info.code !== 0) throw new Error(`getUserInfo failed: ${info.message}`);
  if (t.db) await spendFreeCheck(t.db, info.data.id);
  return { token, userId: info.data.id };
}

/**
 * Marks the account's free check and free AIGC detection (from its registration) used, as after
 * earlier free uses.
 */
export async function spendFreeCheck(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('entitlements')
    .set({ used_at: new Date(), used_for: 'earlier-free-use' })
    .where('user_id', '=', userId)
    .where('kind', 'in', ['free_check', 'free_aigc_detection'])
    .execute();
}

export interface PayQr {
  codeUrl: string;
  orderNo: string;
  outTradeNo: string;
  amount: string;
  amountFen: number;
  expireAt: string;
}

/** An order of `quantity` characters at ¥2 per 1,000 (test goods of the tech_search service). */
export async function newOrder(t: OrdersTestApp, userId: string, quantity = 12_345) {
  return t.orders.createOrder({
    userId,
    serviceType: 'tech_search',
    goodsId: 'test_tech_search',
    quantity,
    serviceRef: 'report-1',
  });
}

export function startPay(t: OrdersTestApp, token: string, orderId: string, payType: 'wx' | 'ali') {
  return call<PayQr>(t, '/order/pay', { orderId, payType }, { token });
}

export function payStatus(t: OrdersTestApp, token: string, orderId: string) {
  return call<{ payStatus: 0 | 1; status: string }>(t, '/order/payStatus', { orderId }, { token });
}

/** POST /__dev/pay: the sandbox pays as the customer's phone would. */
export async function devPay(t: OrdersTestApp, orderNo: string, channel?: 'wx' | 'ali') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/__dev/pay',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(channel ? { orderNo, channel } : { orderNo }),
  });
  return res.json() as Envelope<{ transactionId: string; amountFen: number } | null>;
}

export async function setFaults(t: OrdersTestApp, faults: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/__dev/pay/faults',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(faults),
  });
  return res.json() as Envelope;
}

/** Calls the operator API with the token. */
export function operator<T = unknown>(
  t: OrdersTestApp,
  apiPath: string,
  body: unknown,
  token = OPERATOR_TOKEN,
) {
  return t.app
    .inject({
      method: 'POST',
      url: `/kyfw/web/v1/operator${apiPath}`,
      headers: { 'content-type': 'application/json', ...(token ? { 'x-operator-token': token } : {}) },
      payload: JSON.stringify(body),
    })
    .then((res) => res.json() as Envelope<T>);
}

/**
 * Enqueues one run of an orders job and lets a worker that knows only that job run it (one tick):
 * other queued jobs (a refund notice, an invoice mail) must not take the tick.
 */
export async function runJob(t: OrdersTestApp, name: 'orders.expire' | 'orders.reconcile') {
  const definition = ordersJobDefinitions.find((d) => d.name === name)!;
  await enqueue(t.db, definition, {});
  const worker = createWorker({ db: t.db, definitions: [definition], services: t.root.services });
  const ran = await worker.tick();
  await worker.stop();
  const job = await t.db.selectFrom('jobs').selectAll().where('id', 'in', ran).executeTakeFirst();
  if (job?.status !== 'succeeded')
    throw new Error(`${name} did not succeed: ${job?.status} ${job?.last_error}`);
  return job.result as Record<string, number>;
}

export async function orderRow(t: OrdersTestApp, orderId: string) {
  return t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

export async function paymentsOf(t: OrdersTestApp, orderId: string) {
  return t.db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
}

/** POST /payment/offline/proof (multipart: orderId, file) as the web sends it. */
export async function uploadOfflineProof(
  t: { app: FastifyInstance },
  token: string,
  orderId: string,
  file: Buffer,
  fileName = 'proof.png',
) {
  const boundary = '----kyfwtest';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${orderId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/payment/offline/proof',
    headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  return res.json() as { code: number; message: string; data: { proofId: string; status: string } };
}
