import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DbHandle } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import { createWorker } from '../src/jobs/index.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createServices, type ServiceRoot } from '../src/services.ts';
import { checkStatus, getReport, grantFreeCheck, upload } from './check/check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './check/fixtures.ts';
import { startTestApp, testConfig } from './helper.ts';
import { call, newUser } from './orders/orders-helper.ts';
import { freePort } from './providers/payment/helpers.ts';

// The scaled mode's worker process (`npm run worker`) has no HTTP app: it builds the same services
// with createServices({ role: 'worker' }) and runs the modules' jobs on them. With sandbox payment
// providers it uses the sandbox credentials the API process saved in DATA_DIR and reaches the
// sandboxes over PUBLIC_BASE_URL; the check job runs end to end from its ctx.services.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-worker-process-'));
let api: Awaited<ReturnType<typeof startTestApp>>;
let worker: ServiceRoot;
let db: DbHandle;
let config: Config;

beforeAll(async () => {
  const port = await freePort();
  db = await createTestDb();
  config = testConfig({
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    PASSWORD_SCRYPT_COST: '12',
    SMS_IP_MAX_PER_MINUTE: '1000',
    SMS_IP_MAX_PER_HOUR: '1000',
    SMS_IP_CAPTCHA_AFTER: '100000',
    SMS_IP_MAX_PER_DAY: '1000',
  });
  // The API process as main.ts builds it: generated sandbox keys in DATA_DIR, real loopback HTTP.
  api = await startTestApp({ config, db: db.db });
  await api.app.listen({ port, host: '127.0.0.1' });
  // The worker process as worker.ts builds it, from the same configuration and database.
  worker = await createServices({ config, db: db.db, logger: createLogger(config), role: 'worker' });
});

afterAll(async () => {
  await worker?.close();
  await api?.close();
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the worker process (createServices without the HTTP app)', () => {
  it('builds its own services, with the same jobs and schedules as the API process', () => {
    expect(worker.services.orders).not.toBe(api.root.services.orders);
    expect(worker.jobs.map((j) => j.name)).toEqual(api.root.jobs.map((j) => j.name));
    expect(worker.schedules).toEqual(api.root.schedules);
    // It never opens the sandboxes' books: the API process owns them.
    expect(worker.services.orders.runtime.providers.sandbox).toBeNull();
    expect(worker.services.accounts.wechat).toBeNull();
  });

  it('queries the payment sandbox through PUBLIC_BASE_URL with the saved credentials', async () => {
    const app = api.app;
    const user = await newUser({ app });
    const order = await api.root.services.orders.api.createOrder({
      userId: user.userId,
      serviceType: 'ai_writing',
      goodsId: 'ai_writing_assignment',
      quantity: 1,
    });
    const qr = await call<{ outTradeNo: string }>(
      { app },
      '/order/pay',
      { orderId: order.orderId, payType: 'wx' },
      { token: user.token },
    );
    expect(qr.code).toBe(0);
    const wx = worker.services.orders.runtime.providers.wx;
    expect((await wx.query(order.orderNo)).state).toBe('NOTPAY');
    await app.inject({
      method: 'POST',
      url: '/__dev/pay',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ orderNo: order.orderNo }),
    });
    expect((await wx.query(order.orderNo)).state).toBe('SUCCESS');
  });

  it('runs a check job end to end: the student sees the report the worker made', async () => {
    const source = libraryText(811, 1200);
    const planted = source.slice(200, 360).replace(/\n/g, '');
    await api.root.services.check.library.add([
      { id: 'lib:worker', title: '工人进程测试文献', text: source },
    ]);
    const thesis = buildThesis({ seed: 812, chars: 3000, planted: [planted] });
    const t = { app: api.app };
    const user = await newUser(t);
    await grantFreeCheck({ db: db.db }, user.userId);
    const uploaded = await upload(t, user.token, { bytes: buildDocx(thesis.blocks), name: 'worker.docx' });
    expect(uploaded.data.free).toBe(true);
    const paid = await call(
      t,
      '/freeCheck/payFee',
      { orderId: uploaded.data.orderId },
      { token: user.token },
    );
    expect(paid.code).toBe(0);

    const loop = createWorker({ db: db.db, definitions: worker.jobs, services: worker.services });
    const ran = await loop.tick();
    await loop.stop();
    expect(ran).toHaveLength(1);

    const status = await checkStatus(t, user.token, uploaded.data.orderId);
    expect(status.data).toMatchObject({ checkStatus: 'done', progress: 100 });
    const report = await getReport(t, user.token, uploaded.data.orderId);
    expect(report.data.sources[0]).toMatchObject({ id: 'lib:worker' });
  });
});
