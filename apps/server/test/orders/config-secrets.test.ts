import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@kyfw/contracts';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { memoryLogger, testConfig } from '../helper.ts';
import { fixturePath } from '../providers/payment/helpers.ts';
import {
  buildOrdersApp,
  call,
  devPay,
  newOrder,
  newUser,
  OPERATOR_TOKEN,
  operator,
  startPay,
} from './orders-helper.ts';

const REAL_PAYMENT_ENV = {
  PAYMENT_PROVIDER: 'real',
  PUBLIC_BASE_URL: 'https://www.example.com',
  WECHATPAY_MCHID: '1900009191',
  WECHATPAY_APPID: 'wxd678efh567hg6787',
  WECHATPAY_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  WECHATPAY_PRIVATE_KEY_PATH: fixturePath('test-only-merchant-private.pem'),
  WECHATPAY_PUBLIC_KEY_PATH: fixturePath('test-only-platform-public.pem'),
  WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000091912024050100000000000001',
  WECHATPAY_APIV3_KEY: 'abcdefghijklmnopqrstuvwxyz012345',
  ALIPAY_APP_ID: '2021000000000001',
  ALIPAY_PRIVATE_KEY_PATH: fixturePath('test-only-merchant-private.pem'),
  ALIPAY_PUBLIC_KEY_PATH: fixturePath('test-only-platform-public.pem'),
};

function problemsOf(env: Record<string, string>): string {
  try {
    testConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('real payment providers need their credentials and an https PUBLIC_BASE_URL', () => {
    const message = problemsOf({ PAYMENT_PROVIDER: 'real' });
    for (const name of [
      'WECHATPAY_MCHID',
      'WECHATPAY_APIV3_KEY',
      'ALIPAY_APP_ID',
      'ALIPAY_PRIVATE_KEY_PATH',
      'PUBLIC_BASE_URL',
    ]) {
      expect(message).toContain(name);
    }
    expect(testConfig(REAL_PAYMENT_ENV).orders.paymentProvider).toBe('real');
  });

  it('never prints the operator token or the APIv3 key, even when they are bad', () => {
    const message = problemsOf({
      OPERATOR_TOKEN: 'short-secret-value',
      ...REAL_PAYMENT_ENV,
      WECHATPAY_APIV3_KEY: 'too-short-apiv3',
    });
    expect(message).toContain('OPERATOR_TOKEN');
    expect(message).toContain('WECHATPAY_APIV3_KEY');
    expect(message).not.toContain('short-secret-value');
    expect(message).not.toContain('too-short-apiv3');
    const config = testConfig({ OPERATOR_TOKEN });
    expect(JSON.stringify(config)).not.toContain(OPERATOR_TOKEN);
    expect(testConfig().orders.expireMinutes).toBe(120);
    expect(testConfig({ ORDER_EXPIRE_MINUTES: '30' }).orders.expireMinutes).toBe(30);
  });
});

describe('sandbox controls exist exactly with sandbox payment providers', () => {
  it('with real providers there is no /__dev/pay, no /__sandbox and no demo bank account', async () => {
    const t = await buildOrdersApp({ env: REAL_PAYMENT_ENV });
    try {
      expect(t.rt.providers.sandbox).toBeNull();
      const dev = await t.app.inject({
        method: 'POST',
        url: '/__dev/pay',
        headers: { 'content-type': 'application/json' },
        payload: '{"orderNo":"KY20250101000000000001"}',
      });
      expect(dev.json().code).toBe(ErrorCode.NOT_FOUND);
      const page = await t.app.inject({ method: 'GET', url: '/__sandbox/pay/wx/KY20250101000000000001' });
      expect(page.statusCode).not.toBe(200);
      const info = await call<{ enabled: boolean }>(
        t,
        '/payment/offline/info',
        {},
        { token: (await newUser(t)).token },
      );
      // No bank details configured: no offline payment with real providers.
      expect(info.data.enabled).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('logs', () => {
  it('a payment and refund flow (and a refused operator call) logs no key, token or APIv3 key', async () => {
    const memory = memoryLogger();
    const t = await buildOrdersApp({ logger: memory.logger, env: { LOG_LEVEL: 'info' } });
    try {
      const user = await newUser(t);
      const order = await newOrder(t, user.userId, 5_000);
      await startPay(t, user.token, order.orderId, 'wx');
      await devPay(t, order.orderNo);
      await t.sandbox.notificationSettled('wx', order.orderNo);
      await operator(t, '/orders/refund', { orderNo: order.orderNo, reason: '测试退款' });
      await operator(
        t,
        '/orders/refund',
        { orderNo: order.orderNo, reason: 'x' },
        'wrong-token-wrong-token-wrong-token',
      );
      const credentials = JSON.parse(
        readFileSync(path.join(t.dataDir, 'sandbox', 'payment', 'credentials.json'), 'utf8'),
      ) as { wechatpay: { apiV3Key: string } };
      const text = memory
        .lines()
        .map((line) => JSON.stringify(line))
        .join('\n');
      expect(text).toContain('payment notification handled');
      expect(text).not.toContain(credentials.wechatpay.apiV3Key);
      expect(text).not.toContain(OPERATOR_TOKEN);
      expect(text).not.toContain('wrong-token-wrong-token');
      expect(text).not.toContain(user.token);
      expect(text).not.toContain('PRIVATE KEY');
    } finally {
      await t.close();
    }
  });
});
