// The scaled mode as deployed: two API processes (WORKER_IN_PROCESS=false) and two worker processes
// (`npm run worker`) on one PostgreSQL database and one DATA_DIR. A code sent through one API process
// is read on the other, paid checks run on the workers (one of them killed with SIGKILL on the way)
// and finish with their orders done, and the per-client limits hold across the API processes.
// Runs in the PostgreSQL pass of the suite (scripts/test-pg.sh sets DATABASE_URL).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@kyfw/contracts';
import { createTempPostgresDatabase } from '@kyfw/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from './helper.ts';
import { importSmallLibrary } from './small-library.ts';

const adminUrl = process.env.DATABASE_URL;
const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');
const WORKER = path.resolve(import.meta.dirname, '../src/worker.ts');

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function run(script: string, env: Record<string, string>): Proc {
  let output = '';
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', ...env },
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

async function waitFor(proc: Proc, text: string): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (!proc.output().includes(text)) {
    if (proc.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`waiting for "${text}":\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

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

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(base: string, apiPath: string, body: unknown = {}, token = ''): Promise<Envelope<T>> {
  const url = `${base}${apiPath.startsWith('/__') ? '' : '/kyfw/web/v1'}${apiPath}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token, terminal: 'PC' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope<T>;
}

describe.skipIf(!adminUrl)('scaled mode: 2 API processes + 2 workers on PostgreSQL', () => {
  const procs: Proc[] = [];
  let api1: string;
  let api2: string;
  let workers: Proc[];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const temp = await createTempPostgresDatabase(adminUrl!);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-scaled-'));
    cleanup = async () => {
      for (const proc of procs) {
        if (proc.child.exitCode === null && proc.child.signalCode === null) {
          const exited = new Promise((r) => proc.child.once('exit', r));
          proc.child.kill('SIGTERM');
          await exited;
        }
      }
      await temp.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: temp.url,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SMS_IP_MAX_PER_MINUTE: '100',
      SMS_IP_MAX_PER_HOUR: '1000',
      SMS_IP_CAPTCHA_AFTER: '100000',
      SMS_IP_MAX_PER_DAY: '1000',
      PASSWORD_SCRYPT_COST: '12',
    };
    const [port1, port2] = [await freePort(), await freePort()];
    // All four start at once: the migrations run once, under the advisory lock.
    const apis = [port1, port2].map((port) =>
      run(MAIN, { ...env, PORT: String(port), WORKER_IN_PROCESS: 'false' }),
    );
    workers = [run(WORKER, env), run(WORKER, env)];
    procs.push(...apis, ...workers);
    await Promise.all([
      ...apis.map((p) => waitFor(p, 'kyfw 已启动')),
      ...workers.map((p) => waitFor(p, 'job worker started')),
    ]);
    api1 = `http://127.0.0.1:${port1}`;
    api2 = `http://127.0.0.1:${port2}`;
    // The library the checks compare with (a similarity goods is not sold while it is empty),
    // imported into PostgreSQL as an operator does while the service runs.
    await importSmallLibrary({ config: testConfig({ DATABASE_URL: temp.url, DATA_DIR: dataDir }) });
  }, 180_000);

  afterAll(async () => {
    await cleanup?.();
  }, 60_000);

  let token: string;

  it('registers with a code sent by one API process and read on the other', async () => {
    const phone = `13${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
    expect((await api(api1, '/sendCheckCode', { phoneNumber: phone, type: '1' })).code).toBe(0);
    const sms = (await (await fetch(`${api2}/__dev/sms/last?phone=${phone}`)).json()) as Envelope<{
      code: string;
    } | null>;
    expect(sms.data?.code).toMatch(/^\d{6}$/);
    const registered = await api<{ token: string }>(api2, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: sms.data!.code,
      passWord: createHash('md5').update('scaled-pass-1').digest('hex'),
    });
    expect(registered.code).toBe(0);
    token = registered.data.token;
  });

  it('runs paid checks on the workers, one killed with SIGKILL, and finishes every order', {
    timeout: 240_000,
  }, async () => {
    async function uploadAndPay(base: string, seed: number): Promise<string> {
      const form = new FormData();
      form.append('title', `扩展模式测试论文 ${seed}`);
      form.append('author', '测试');
      form.append('goodsId', 'check_undergrad');
      form.append(
        'file',
        new Blob(['城市交通治理与公共政策评估研究。'.repeat(200 + seed)], { type: 'text/plain' }),
        `p${seed}.txt`,
      );
      const res = await fetch(`${base}/kyfw/web/v1/freeCheck/uploadFile`, {
        method: 'POST',
        headers: { token, terminal: 'PC' },
        body: form,
      });
      const up = (await res.json()) as Envelope<{ orderId: string; free: boolean }>;
      expect(up.code).toBe(0);
      if (up.data.free) {
        expect((await api(base, '/freeCheck/payFee', { orderId: up.data.orderId }, token)).code).toBe(0);
        return up.data.orderId;
      }
      // The payment sandbox belongs to the API process that made the QR code: pay there.
      const qr = await api<{ outTradeNo: string }>(
        api1,
        '/order/pay',
        { orderId: up.data.orderId, payType: 'ali' },
        token,
      );
      expect(qr.code).toBe(0);
      expect((await api(api1, '/__dev/pay', { orderNo: qr.data.outTradeNo })).code).toBe(0);
      return up.data.orderId;
    }

    const first = await uploadAndPay(api1, 1);
    workers[0]!.child.kill('SIGKILL');
    const others = [await uploadAndPay(api2, 2), await uploadAndPay(api1, 3)];
    for (const orderId of [first, ...others]) {
      await expect
        .poll(
          async () => {
            const status = await api<{ checkStatus: string; status: string | null; free: boolean }>(
              api2,
              '/freeCheck/orderPayStatus',
              { orderId },
              token,
            );
            return status.data.checkStatus === 'done' && (status.data.free || status.data.status === 'done');
          },
          { timeout: 180_000, interval: 250 },
        )
        .toBe(true);
    }
  });

  it('counts one client’s report verifications across both API processes', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 22; i++) {
      const base = i % 2 === 0 ? api1 : api2;
      codes.push(
        (await api(base, '/freeCheck/verify', { reportNo: 'BG20260101000000000001', code: 'ABCDEFGH' })).code,
      );
    }
    expect(codes.slice(0, 20)).not.toContain(ErrorCode.RATE_LIMITED);
    expect(codes.slice(20)).toEqual([ErrorCode.RATE_LIMITED, ErrorCode.RATE_LIMITED]);
  });
});
