import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acceptRawBodies,
  createInjectFetch,
  createPaymentProviders,
  type PaymentNotification,
  paymentConfigSchema,
  rawBodyOf,
} from '../../../src/providers/payment/index.ts';
import { freePort, type Harness, newOrderNo, openPage, startHarness, TEST_SANDBOX_KEYS } from './helpers.ts';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kyfw-pay-sandbox-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a restart of the process loses nothing (state dir)', () => {
  it('paid orders stay paid, unpaid stay payable, and an unacknowledged notification arrives after the restart', async () => {
    const stateDir = await tempDir();
    const port = await freePort();
    let first: Harness | undefined = await startHarness({ port, stateDir, retryScheduleMs: [300, 300, 300] });
    let second: Harness | undefined;
    try {
      const orders = { wx: newOrderNo(), ali: newOrderNo(), unpaid: newOrderNo(), refunded: newOrderNo() };
      const create = (channel: 'wx' | 'ali', orderNo: string) =>
        first!.providers[channel].createQr({
          orderNo,
          amountFen: 880,
          description: '重启测试',
          expireAt: new Date(Date.now() + 3_600_000),
          notifyUrl: first!.notifyUrl(channel),
        });
      await create('wx', orders.wx);
      await create('ali', orders.ali);
      const { codeUrl: unpaidUrl } = await create('wx', orders.unpaid);
      await create('ali', orders.refunded);
      await first.sandbox.payInSandbox('ali', orders.refunded);
      await first.sandbox.notificationSettled('ali', orders.refunded);
      await first.providers.ali.refund({
        orderNo: orders.refunded,
        refundNo: 'RF1',
        amountFen: 80,
        totalFen: 880,
        reason: '测试',
      });

      // Our endpoint is down (refuses) while the two payments happen; then the process stops.
      first.react = () => 'fail';
      await first.sandbox.payInSandbox('wx', orders.wx);
      await first.sandbox.payInSandbox('ali', orders.ali);
      const failedOnce = (orderNo: string) => first!.sandbox.deliveries.some((d) => d.orderNo === orderNo);
      await until(() => failedOnce(orders.wx) && failedOnce(orders.ali));
      const credentials = first.sandboxConfig;
      await first.close();
      first = undefined;

      second = await startHarness({ port, stateDir });
      expect(second.sandboxConfig.wechatpay.mchid).toBe(credentials.wechatpay.mchid);
      expect(second.sandboxConfig.alipay.appId).toBe(credentials.alipay.appId);
      expect(await second.sandbox.notificationSettled('wx', orders.wx)).toBe('acked');
      expect(await second.sandbox.notificationSettled('ali', orders.ali)).toBe('acked');
      const received = (orderNo: string) =>
        second!.received.filter((n: PaymentNotification) => n.orderNo === orderNo);
      expect(received(orders.wx)).toEqual([expect.objectContaining({ state: 'SUCCESS', amountFen: 880 })]);
      expect(received(orders.ali)).toEqual([expect.objectContaining({ state: 'SUCCESS', amountFen: 880 })]);

      expect((await second.providers.wx.query(orders.wx)).state).toBe('SUCCESS');
      expect((await second.providers.ali.query(orders.ali)).state).toBe('SUCCESS');
      const refunded = await second.providers.ali.refund({
        orderNo: orders.refunded,
        refundNo: 'RF1',
        amountFen: 80,
        totalFen: 880,
        reason: '测试',
      });
      expect(refunded.amountFen).toBe(80);
      expect((await second.providers.wx.query(orders.unpaid)).state).toBe('NOTPAY');
      expect((await openPage(unpaidUrl, 'pay')).html).toContain('支付成功');
      expect(await second.sandbox.notificationSettled('wx', orders.unpaid)).toBe('acked');
    } finally {
      await first?.close();
      await second?.close();
    }
  });
});

describe('zero configuration: credentials are generated once and kept', () => {
  it('creates RSA-2048 keys and ids in the state dir on first start and reuses them', async () => {
    const stateDir = await tempDir();
    const options = { mode: 'sandbox' as const, stateDir, publicBaseUrl: 'http://127.0.0.1:9' };
    const one = await createPaymentProviders(paymentConfigSchema.parse({}), options);
    const two = await createPaymentProviders(paymentConfigSchema.parse({}), options);
    expect(one.sandbox).not.toBeNull();
    const { readdir, stat, readFile } = await import('node:fs/promises');
    const files = (await readdir(stateDir)).sort();
    expect(files).toEqual([
      'alipay-app-private.pem',
      'alipay-app-public.pem',
      'alipay-platform-private.pem',
      'alipay-platform-public.pem',
      'books',
      'credentials.json',
      'wechatpay-merchant-private.pem',
      'wechatpay-merchant-public.pem',
      'wechatpay-platform-private.pem',
      'wechatpay-platform-public.pem',
    ]);
    expect((await stat(join(stateDir, 'wechatpay-merchant-private.pem'))).mode & 0o077).toBe(0);
    expect((await stat(join(stateDir, 'credentials.json'))).mode & 0o077).toBe(0);
    const credentials = JSON.parse(await readFile(join(stateDir, 'credentials.json'), 'utf8'));
    expect(credentials.wechatpay.platformPublicKeyId).toMatch(/^PUB_KEY_ID_\d+$/);
    expect(credentials.wechatpay.apiV3Key).toHaveLength(32);
    expect(credentials.alipay.sellerId).toMatch(/^2088\d{12}$/);
    const { createPrivateKey } = await import('node:crypto');
    const key = createPrivateKey(await readFile(join(stateDir, 'alipay-app-private.pem'), 'utf8'));
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    await one.sandbox!.close();
    await two.sandbox!.close();
  });
});

describe('createInjectFetch: the whole flow without a listening server', () => {
  it('adapters reach the mounted sandbox and notifications reach the app through inject', async () => {
    const app = Fastify();
    const providers = await createPaymentProviders(paymentConfigSchema.parse({}), {
      mode: 'sandbox',
      publicBaseUrl: 'http://kyfw.test',
      sandboxKeys: TEST_SANDBOX_KEYS,
      retryScheduleMs: [20, 20],
      fetch: createInjectFetch(() => app),
    });
    const received: PaymentNotification[] = [];
    await app.register(providers.sandbox!.routes, { prefix: '/__sandbox' });
    await app.register(async (scope) => {
      acceptRawBodies(scope);
      scope.post<{ Params: { channel: 'wx' | 'ali' } }>('/notify/:channel', async (request, reply) => {
        const provider = providers[request.params.channel];
        received.push(
          provider.verifyNotification({ headers: request.headers, rawBody: rawBodyOf(request.body) }),
        );
        const ack = provider.acknowledge({ ok: true });
        return reply.code(ack.statusCode).type(ack.contentType).send(ack.body);
      });
    });
    await app.ready();
    try {
      for (const channel of ['wx', 'ali'] as const) {
        const orderNo = newOrderNo();
        const { codeUrl } = await providers[channel].createQr({
          orderNo,
          amountFen: 1,
          description: '注入测试',
          expireAt: new Date(Date.now() + 600_000),
          notifyUrl: `http://kyfw.test/notify/${channel}`,
        });
        expect(codeUrl).toBe(`http://kyfw.test/__sandbox/pay/${channel}/${orderNo}`);
        const page = await app.inject({ method: 'GET', url: new URL(codeUrl).pathname });
        expect(page.body).toContain('¥0.01');
        await providers.sandbox!.payInSandbox(channel, orderNo);
        expect(await providers.sandbox!.notificationSettled(channel, orderNo)).toBe('acked');
        expect(received.at(-1)).toMatchObject({ channel, orderNo, amountFen: 1, state: 'SUCCESS' });
        expect((await providers[channel].query(orderNo)).state).toBe('SUCCESS');
        expect(await providers[channel].close(orderNo).catch((e) => e.kind)).toBe('ORDER_PAID');
      }
    } finally {
      await app.close();
    }
  });
});
