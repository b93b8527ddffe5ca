import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DbHandle } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { appModules } from '../../src/modules/index.ts';
import { getOrdersApi } from '../../src/modules/orders/orders.api.ts';
import { findOrdersRuntime, runtimeForJob } from '../../src/modules/orders/orders.runtime.ts';
import { testConfig } from '../helper.ts';
import { freePort } from '../providers/payment/helpers.ts';
import { call, newUser } from './orders-helper.ts';

// The scaled mode's worker process (`npm run worker`) has no app: its job handlers build the
// payment providers from the environment. With sandbox providers they must use the sandbox
// credentials the API process saved in DATA_DIR and reach the sandboxes over PUBLIC_BASE_URL.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-orders-worker-'));
let app: FastifyInstance;
let db: DbHandle;
let baseUrl: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  db = await createTestDb();
  const config = testConfig({
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: baseUrl,
    PASSWORD_SCRYPT_COST: '12',
    SMS_IP_MAX_PER_MINUTE: '1000',
    SMS_IP_MAX_PER_HOUR: '1000',
    SMS_IP_MAX_PER_DAY: '1000',
  });
  // The real module as main.ts builds it: generated sandbox keys in DATA_DIR, real loopback HTTP.
  app = await buildApp({ config, db: db.db, modules: appModules });
  await app.listen({ port, host: '127.0.0.1' });
});

afterAll(async () => {
  process.env = savedEnv;
  await app.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('a worker process without the app queries the sandbox through PUBLIC_BASE_URL with the saved credentials', async () => {
  const user = await newUser({ app });
  const order = await getOrdersApi(db.db).createOrder({
    userId: user.userId,
    serviceType: 'ai_writing',
    goodsId: 'ai_writing_assignment',
    quantity: 1,
  });
  const qr = await call<{ outTradeNo: string }>(
    { app },
    '/order/pay',
    { orderId: order.orderId, payType: 'wx' },
    {
      token: user.token,
    },
  );
  expect(qr.code).toBe(0);

  process.env = {
    ...savedEnv,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: baseUrl,
    LOG_LEVEL: 'silent',
  };
  const other = await createTestDb(); // another handle: no runtime registered for it
  try {
    const rt = await runtimeForJob(other.db, pino({ level: 'silent' }));
    expect(rt).not.toBe(findOrdersRuntime(db.db));
    expect(rt.providers.sandbox).toBeNull();
    expect((await rt.providers.wx.query(order.orderNo)).state).toBe('NOTPAY');
    await app.inject({
      method: 'POST',
      url: '/__dev/pay',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ orderNo: order.orderNo }),
    });
    expect((await rt.providers.wx.query(order.orderNo)).state).toBe('SUCCESS');
  } finally {
    await other.close();
  }
});
