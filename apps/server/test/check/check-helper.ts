import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ReportModel } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { expect } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { grantBindingEntitlements } from '../../src/modules/accounts/entitlements.service.ts';
import { checkRunJob } from '../../src/modules/check/check.jobs.ts';
import type { CheckRuntime } from '../../src/modules/check/check.runtime.ts';
import { queuePaidCheck } from '../../src/modules/check/check.service.ts';
import type { LibraryInput } from '../../src/modules/check/library/library.ts';
import {
  type BuildOptions,
  buildOrdersApp,
  call,
  devPay,
  type Envelope,
  type OrdersTestApp,
  startPay,
} from '../orders/orders-helper.ts';
import { buildDocx } from './fixtures.ts';

export { call, type Envelope, newUser } from '../orders/orders-helper.ts';

export interface CheckTestApp extends OrdersTestApp {
  rt: OrdersTestApp['rt'];
  check: CheckRuntime;
}

/** The real app (every module, payment sandboxes in-process) with the check module's runtime at hand. */
export async function buildCheckApp(options: BuildOptions = {}): Promise<CheckTestApp> {
  const t = await buildOrdersApp(options);
  return { ...t, check: t.root.services.check };
}

/** Adds documents to the test app's comparison library (the local index under its DATA_DIR). */
export async function seedLibrary(t: CheckTestApp, docs: LibraryInput[]) {
  return t.check.library.add(docs);
}

export interface UploadResult {
  orderId: string;
  orderNo: string;
  chars: number;
  amount: string;
  amountFen: number;
  price: string;
  free: boolean;
  freeNote: string | null;
  status: string;
}

let uploadCounter = 1;

/** POST /freeCheck/uploadFile as a browser sends it (multipart/form-data). */
export async function upload(
  t: { app: CheckTestApp['app'] },
  token: string,
  file: { bytes: Uint8Array; name: string } | null,
  fields: Record<string, string> = {},
): Promise<Envelope<UploadResult>> {
  const boundary = `----kyfw${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const all = { title: '城市交通治理研究', author: '张三', goodsId: 'check_undergrad', ...fields };
  for (const [name, value] of Object.entries(all)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(file.name)}"; filename*=UTF-8''${encodeURIComponent(file.name)}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/freeCheck/uploadFile',
    // A client address per upload: the per-client upload limit is tested on its own.
    remoteAddress: `10.77.${uploadCounter >> 8}.${uploadCounter++ & 255}`,
    headers: { terminal: 'PC', token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Envelope<UploadResult>;
}

/** /freeCheck/goodsList as the user sees it, by goods id (its sale state and reason, issue 12). */
export async function goodsById(t: Pick<CheckTestApp, 'app'>, token: string) {
  const res = await call<
    {
      goodsId: string;
      available: boolean;
      unavailableReason: string | null;
      library: { documents: number } | null;
    }[]
  >(t, '/freeCheck/goodsList', {}, { token });
  expect(res.code).toBe(0);
  return new Map(res.data.map((g) => [g.goodsId, g]));
}

/** The user's checks and orders, and the stored check files: what an upload creates (or not). */
export async function createdBy(t: Pick<CheckTestApp, 'db' | 'dataDir'>, userId: string) {
  const n = async (table: 'checks' | 'orders') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { checks: await n('checks'), orders: await n('orders'), files: storedCheckFiles(t).length };
}

/**
 * Uploads `text` as a .docx (one paragraph a line), marks its order paid, runs the check and answers
 * the report: a paid check from upload to report in one call.
 */
export async function checkPaidPaper(
  t: CheckTestApp,
  token: string,
  text: string,
  fields: Record<string, string> = {},
) {
  const up = await upload(
    t,
    token,
    { bytes: buildDocx(text.split('\n').map((line) => ({ text: line }))), name: 'p.docx' },
    fields,
  );
  expect(up.code).toBe(0);
  await t.db.transaction().execute(async (tx) => {
    // Paid through the orders module in the other tests; here the order is marked paid directly.
    await queuePaidCheck(tx, up.data.orderId, null, new Date());
  });
  await runCheckJobs(t);
  const report = await getReport(t, token, up.data.orderId);
  expect(report.code).toBe(0);
  return { orderId: up.data.orderId, report: report.data };
}

/** One worker round over the check job (runs what is due to the end). */
export async function runCheckJobs(t: Pick<CheckTestApp, 'db' | 'root'>): Promise<string[]> {
  const worker = createWorker({ db: t.db, definitions: [checkRunJob], services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}

/** The free check and free AIGC detection of the registration, unused (`newUser` marks them used). */
export async function grantFreeCheck(t: { db: CheckTestApp['db'] }, userId: string): Promise<void> {
  await grantBindingEntitlements(t.db, userId, 'phone_register', new Date());
  await t.db
    .updateTable('entitlements')
    .set({ used_at: null, used_for: null })
    .where('user_id', '=', userId)
    .where('kind', 'in', ['free_check', 'free_aigc_detection'])
    .execute();
}

/** Pays a check order with the WeChat sandbox: QR code, /__dev/pay, the signed notification. */
export async function payCheckOrder(t: CheckTestApp, token: string, orderId: string): Promise<void> {
  const qr = await startPay(t, token, orderId, 'wx');
  expect(qr.code).toBe(0);
  const paid = await devPay(t, qr.data.orderNo, 'wx');
  expect(paid.code).toBe(0);
  expect(await t.sandbox.notificationSettled('wx', qr.data.orderNo)).toBe('acked');
}

export function getReport(t: Pick<CheckTestApp, 'app'>, token: string, orderId: string) {
  return call<ReportModel>(t, '/freeCheck/report', { orderId }, { token });
}

export interface CheckStatus {
  orderId: string;
  free: boolean;
  checkStatus: string;
  checkStatusText: string;
  stage: string | null;
  progress: number;
  failureReason: string | null;
  canRetry: boolean;
  reportReady: boolean;
}

export function checkStatus(t: Pick<CheckTestApp, 'app'>, token: string, orderId: string) {
  return call<CheckStatus>(t, '/freeCheck/checkStatus', { orderId }, { token });
}

/** Files under DATA_DIR/files/check (to assert what was stored, or removed). */
export function storedCheckFiles(t: { dataDir: string }): string[] {
  const root = path.join(t.dataDir, 'files', 'check');
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}

/** POST /freeCheck/downloadReport: the raw HTTP answer. */
export function download(t: CheckTestApp, token: string, orderId: string, format: string) {
  return t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/freeCheck/downloadReport',
    headers: { terminal: 'PC', token, 'content-type': 'application/json' },
    payload: JSON.stringify({ orderId, format }),
  });
}

// ---------------------------------------------------------------------------------------------
// Interleaving on a real PostgreSQL server: a third session holds a row while the transactions
// under test queue up behind it.

/** Sessions of this database waiting on a lock (PostgreSQL). */
export async function lockWaiters(t: { db: CheckTestApp['db'] }): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
  return Number(rows[0]?.n ?? 0);
}

/** Polls `condition` every 10 ms until it holds; throws after 10 s, naming `what` it waited for. */
export async function waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `lock` (a SELECT … FOR UPDATE) in a transaction of its own and holds it until `release()`,
 * which resolves once that transaction has ended.
 */
export async function holdRowLock(
  t: { db: CheckTestApp['db'] },
  lock: (tx: CheckTestApp['db']) => Promise<unknown>,
): Promise<{ release: () => Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const holder = t.db.transaction().execute(async (tx) => {
    await lock(tx);
    held();
    await gate;
  });
  await holding;
  return {
    release: async () => {
      open();
      await holder;
    },
  };
}
