// Start-up: the data folder belongs to one process, the public address follows PORT, and the
// built-in sandboxes deliver to the process they belong to whatever PUBLIC_BASE_URL says.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_PREFIX } from '@kyfw/contracts';
import { createTestDb } from '@kyfw/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR_LOCK_FILE, DataDirLockedError, lockDataDir } from '../src/lib/data-dir-lock.ts';
import type { OrdersApi } from '../src/modules/orders/orders.api.ts';
import { startTestApp, testConfig } from './helper.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

describe('the data folder lock', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a folder held by a living process and takes over one left by a dead process', () => {
    const dir = tempDir();
    // A living process other than this one: the parent of this test process.
    writeFileSync(path.join(dir, DATA_DIR_LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/另一个 kyfw 进程.*正在使用数据目录/);

    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(path.join(dir, DATA_DIR_LOCK_FILE), `${dead.stdout}\n`);
    const release = lockDataDir(dir);
    release();
    // Released: taken again at once.
    lockDataDir(dir)();
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

function runMain(env: Record<string, string>) {
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function post<T>(base: string, apiPath: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', terminal: 'PC', ...headers },
    body: JSON.stringify(body),
  });
  return { json: (await res.json()) as { code: number; message: string; data: T }, headers: res.headers };
}

describe('npm start on another port', () => {
  it('serves its QR pages at http://localhost:<PORT>, completes a WeChat login, and refuses a second instance on its data folder', {
    timeout: 180_000,
  }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-port-'));
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'none'),
    };
    const first = runMain(env);
    try {
      const deadline = Date.now() + 150_000;
      while (!first.output().includes('kyfw 已启动')) {
        if (first.child.exitCode !== null || Date.now() > deadline) throw new Error(first.output());
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(first.output()).toContain(`kyfw 已启动：http://localhost:${port}`);

      const second = runMain({ ...env, PORT: String(await freePort()) });
      expect(await exited(second.child)).toBe(1);
      expect(second.output()).toContain(`正在使用数据目录 ${dataDir}`);
      expect(second.output()).not.toContain('database opened');

      const base = `http://127.0.0.1:${port}`;
      const qr = await post<{ ticket: string; userId: string; qrUrl: string }>(
        base,
        `${API_PREFIX}/qrCode`,
        {},
      );
      expect(qr.json.code).toBe(0);
      expect(qr.json.data.qrUrl.startsWith(`http://localhost:${port}/`)).toBe(true);
      const cookie = (qr.headers.get('set-cookie') ?? '').split(';')[0]!;
      const image = await fetch(qr.json.data.qrUrl.replace('localhost', '127.0.0.1'));
      expect(image.headers.get('content-type')).toBe('image/png');
      const scan = await post(base, '/__dev/wechat/scan', {
        ticket: qr.json.data.ticket,
        openId: 'o-port-test',
      });
      expect(scan.json).toMatchObject({ code: 0 });
      const status = await post<{ loginStatus: string }>(
        base,
        `${API_PREFIX}/loginStatus`,
        { userId: qr.json.data.userId },
        { cookie },
      );
      expect(status.json.data.loginStatus).toBe('1');
    } finally {
      first.child.kill('SIGTERM');
      await exited(first.child);
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Released on exit.
    expect(first.output()).toContain('shutdown complete');
  });
});

describe('sandboxes deliver to the process they belong to', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>['app'];
  let close: () => Promise<void>;
  let base: string;
  let dataDir: string;
  let orders: OrdersApi;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-self-'));
    const handle = await createTestDb();
    // An address nothing listens on: the sandboxes must not depend on it.
    const config = testConfig({
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: 'http://localhost:1',
      PASSWORD_SCRYPT_COST: '12',
    });
    const started = await startTestApp({ config, db: handle.db });
    app = started.app;
    orders = started.root.services.orders.api;
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    await handle.db
      .insertInto('goods')
      .values({
        id: 'test_self_delivery',
        service_type: 'tech_search',
        name: '科技查新（测试）',
        unit_price_fen: 200,
        unit_size: 1000,
        unit: '千字',
        min_quantity: 1,
        max_quantity: 300_000,
      })
      .execute();
    close = async () => {
      await started.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it('a WeChat scan reaches this process and logs in', async () => {
    const qr = await post<{ ticket: string; userId: string }>(base, `${API_PREFIX}/qrCode`, {});
    const cookie = (qr.headers.get('set-cookie') ?? '').split(';')[0]!;
    const scan = await post(base, '/__dev/wechat/scan', { ticket: qr.json.data.ticket, openId: 'o-self' });
    expect(scan.json).toMatchObject({ code: 0 });
    const status = await post<{ loginStatus: string; userInfo: { token: string } }>(
      base,
      `${API_PREFIX}/loginStatus`,
      { userId: qr.json.data.userId },
      { cookie },
    );
    expect(status.json.data.loginStatus).toBe('1');
  });

  it('a sandbox payment reaches the order', { timeout: 60_000 }, async () => {
    const qr = await post<{ ticket: string; userId: string }>(base, `${API_PREFIX}/qrCode`, {});
    const cookie = (qr.headers.get('set-cookie') ?? '').split(';')[0]!;
    await post(base, '/__dev/wechat/scan', { ticket: qr.json.data.ticket, openId: 'o-payer' });
    const login = await post<{ userInfo: { token: string } }>(
      base,
      `${API_PREFIX}/loginStatus`,
      { userId: qr.json.data.userId },
      { cookie },
    );
    const token = login.json.data.userInfo.token;
    const info = await post<{ id: string }>(base, `${API_PREFIX}/getUserInfo`, {}, { token });
    const order = await orders.createOrder({
      userId: info.json.data.id,
      serviceType: 'tech_search',
      goodsId: 'test_self_delivery',
      quantity: 5000,
      serviceRef: 'report-self',
    });
    const pay = await post<{ orderNo: string }>(
      base,
      `${API_PREFIX}/order/pay`,
      { orderId: order.orderId, payType: 'wx' },
      { token },
    );
    expect(pay.json.code).toBe(0);
    const paid = await post(base, '/__dev/pay', { orderNo: pay.json.data.orderNo });
    expect(paid.json.code).toBe(0);
    await expect
      .poll(
        async () =>
          (
            await post<{ payStatus: number }>(
              base,
              `${API_PREFIX}/order/payStatus`,
              { orderId: order.orderId },
              { token },
            )
          ).json.data.payStatus,
        { timeout: 30_000, interval: 100 },
      )
      .toBe(1);
  });
});
