import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DbHandle } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildOrdersApp,
  createClock,
  devPay,
  MINUTE,
  newOrder,
  newUser,
  type OrdersTestApp,
  openPersistentDb,
  orderRow,
  paymentsOf,
  runJob,
  setFaults,
  startPay,
} from './orders-helper.ts';

// A restart between the payment and its notification loses nothing: the app is closed and opened
// again on the same database (PGlite data dir; with DATABASE_URL the same PostgreSQL database) and
// the same sandbox state dir, then the sandbox's pending notification lands, or the reconciliation
// finds the payment whose notification was lost.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-orders-restart-'));
const clock = createClock(new Date().toISOString());
const usesPostgres = Boolean(process.env.DATABASE_URL);
let sharedDb: DbHandle | undefined;

async function openDb(): Promise<DbHandle> {
  if (usesPostgres) {
    sharedDb ??= await createTestDb();
    return sharedDb;
  }
  return openPersistentDb(dataDir);
}

async function start(): Promise<{ t: OrdersTestApp; db: DbHandle }> {
  const db = await openDb();
  return { t: await buildOrdersApp({ dataDir, db, clock }), db };
}

async function stop(run: { t: OrdersTestApp; db: DbHandle }): Promise<void> {
  await run.t.closeApp();
  if (!usesPostgres) await run.db.close();
}

let user: { token: string; userId: string };

beforeAll(async () => {
  const run = await start();
  user = await newUser(run.t);
  await stop(run);
});

afterAll(async () => {
  await sharedDb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('the pending notification is delivered after the restart', async () => {
  let run = await start();
  const order = await newOrder(run.t, user.userId, 8_000);
  await startPay(run.t, user.token, order.orderId, 'wx');
  await setFaults(run.t, { channel: 'wx', delayMs: 2_000 });
  expect((await devPay(run.t, order.orderNo)).code).toBe(0);
  expect((await orderRow(run.t, order.orderId)).status).toBe('pending_payment');
  await stop(run);

  run = await start();
  try {
    expect(await run.t.sandbox.notificationSettled('wx', order.orderNo)).toBe('acked');
    // Delivered by the new process's notifier, from the books it found in the state dir.
    expect(run.t.sandbox.deliveries.filter((d) => d.orderNo === order.orderNo).map((d) => d.outcome)).toEqual(
      ['acked'],
    );
    expect((await orderRow(run.t, order.orderId)).status).toBe('paid');
    expect(await paymentsOf(run.t, order.orderId)).toMatchObject([
      { source: 'notification', status: 'accepted' },
    ]);
  } finally {
    await stop(run);
  }
});

it('a notification lost around the restart is recovered by the reconciliation', async () => {
  let run = await start();
  const order = await newOrder(run.t, user.userId, 8_000);
  await startPay(run.t, user.token, order.orderId, 'ali');
  await setFaults(run.t, { channel: 'ali', dropNext: 1 });
  await devPay(run.t, order.orderNo);
  await stop(run);

  run = await start();
  try {
    expect((await orderRow(run.t, order.orderId)).status).toBe('pending_payment');
    clock.advance(MINUTE);
    await runJob(run.t, 'orders.reconcile');
    expect((await orderRow(run.t, order.orderId)).status).toBe('paid');
    expect(await paymentsOf(run.t, order.orderId)).toMatchObject([
      { source: 'reconciliation', status: 'accepted' },
    ]);
  } finally {
    await stop(run);
  }
});
