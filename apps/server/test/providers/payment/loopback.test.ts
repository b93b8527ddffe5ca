import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAlipayProvider,
  createWechatPayProvider,
  type PayChannel,
  type PaymentProvider,
  PaymentProviderError,
  SandboxPayError,
} from '../../../src/providers/payment/index.ts';
import { fixtureKey, type Harness, newOrderNo, openPage, startHarness } from './helpers.ts';

// The real adapters against the sandboxes over 127.0.0.1: every request signed and verified,
// every notification signed (and for WeChat encrypted) and verified by our endpoint.

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  h.sandbox.resetFaults();
  h.react = () => 'ack';
});

async function createOrder(channel: PayChannel, overrides: { amountFen?: number; expireAt?: Date } = {}) {
  const orderNo = newOrderNo();
  const { codeUrl } = await h.providers[channel].createQr({
    orderNo,
    amountFen: overrides.amountFen ?? 1990,
    description: '论文查重-维普 <专业版>',
    expireAt: overrides.expireAt ?? new Date(Date.now() + 2 * 60 * 60 * 1000),
    notifyUrl: h.notifyUrl(channel),
  });
  return { orderNo, codeUrl };
}

function receivedFor(orderNo: string) {
  return h.received.filter((n) => n.orderNo === orderNo);
}

async function rejection(promise: Promise<unknown>): Promise<PaymentProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentProviderError);
    return error as PaymentProviderError;
  }
  throw new Error('expected a PaymentProviderError');
}

describe.each(['wx', 'ali'] as const)('%s adapter <-> sandbox over loopback', (channel) => {
  const provider = (): PaymentProvider => h.providers[channel];

  it('create -> the QR code opens the 模拟支付 page -> pay -> verified notification -> query SUCCESS', async () => {
    const { orderNo, codeUrl } = await createOrder(channel);
    expect(codeUrl).toBe(`${h.baseUrl}/__sandbox/pay/${channel}/${orderNo}`);
    expect(await provider().query(orderNo)).toMatchObject({ orderNo, state: 'NOTPAY' });

    const page = await openPage(codeUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('¥19.90');
    expect(page.html).toContain('论文查重-维普 &#60;专业版&#62;');
    expect(page.html).toContain('模拟支付');
    expect(page.html).toContain('取消');

    const paid = await openPage(codeUrl, 'pay');
    expect(paid.html).toContain('支付成功');
    expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('acked');

    const [notification] = receivedFor(orderNo);
    expect(notification).toMatchObject({ channel, orderNo, amountFen: 1990, state: 'SUCCESS' });
    expect(notification!.paidAt).toBeInstanceOf(Date);

    const queried = await provider().query(orderNo);
    expect(queried).toMatchObject({ orderNo, state: 'SUCCESS', amountFen: 1990 });
    expect(queried.transactionId).toBe(notification!.transactionId);
    expect(queried.paidAt?.getTime()).toBe(notification!.paidAt!.getTime());

    // The phone scanning the paid code again is told so; nothing is charged twice.
    expect((await openPage(codeUrl)).html).toContain('该订单已支付');
    await expect(h.sandbox.payInSandbox(channel, orderNo)).rejects.toMatchObject({ code: 'ORDER_PAID' });
    expect(receivedFor(orderNo)).toHaveLength(1);
  });

  it('取消 on the page pays nothing and leaves the order payable', async () => {
    const { orderNo, codeUrl } = await createOrder(channel);
    expect((await openPage(codeUrl, 'cancel')).html).toContain('已取消支付');
    expect((await provider().query(orderNo)).state).toBe('NOTPAY');
    await h.sandbox.payInSandbox(channel, orderNo);
    expect((await provider().query(orderNo)).state).toBe('SUCCESS');
  });

  it('creating the same order again returns the same code; other parameters are refused', async () => {
    const orderNo = newOrderNo();
    const input = {
      orderNo,
      amountFen: 500,
      description: '降重服务',
      expireAt: new Date(Date.now() + 3_600_000),
      notifyUrl: h.notifyUrl(channel),
    };
    const first = await provider().createQr(input);
    expect(await provider().createQr(input)).toEqual(first);
    expect((await rejection(provider().createQr({ ...input, amountFen: 1 }))).kind).toBe('DUPLICATE_ORDER');
    await h.sandbox.payInSandbox(channel, orderNo);
    expect((await rejection(provider().createQr(input))).kind).toBe('ORDER_PAID');
  });

  it('close: an unpaid order can no longer be paid; a paid one is never closed', async () => {
    const { orderNo, codeUrl } = await createOrder(channel);
    await openPage(codeUrl); // scanned (Alipay creates its trade now)
    expect(await provider().close(orderNo)).toEqual({ state: 'CLOSED' });
    expect((await provider().query(orderNo)).state).toBe('CLOSED');
    expect(await provider().close(orderNo)).toEqual({ state: 'CLOSED' });
    await expect(h.sandbox.payInSandbox(channel, orderNo)).rejects.toMatchObject({ code: 'ORDER_CLOSED' });
    expect((await openPage(codeUrl)).html).toContain('订单已关闭');
    expect(
      (
        await rejection(
          provider().createQr({
            orderNo,
            amountFen: 1990,
            description: '论文查重-维普 <专业版>',
            expireAt: new Date(Date.now() + 3_600_000),
            notifyUrl: h.notifyUrl(channel),
          }),
        )
      ).kind,
    ).toBe('ORDER_CLOSED');

    const paid = await createOrder(channel);
    await h.sandbox.payInSandbox(channel, paid.orderNo);
    expect((await rejection(provider().close(paid.orderNo))).kind).toBe('ORDER_PAID');
    expect((await provider().query(paid.orderNo)).state).toBe('SUCCESS');
  });

  it('refund: partial, idempotent by refund number, never more than paid', async () => {
    const { orderNo } = await createOrder(channel, { amountFen: 1000 });
    expect(
      (
        await rejection(
          provider().refund({
            orderNo,
            refundNo: `R${orderNo}`,
            amountFen: 100,
            totalFen: 1000,
            reason: '未支付',
          }),
        )
      ).kind,
    ).toBe('REFUND_REJECTED');
    await h.sandbox.payInSandbox(channel, orderNo);

    const first = await provider().refund({
      orderNo,
      refundNo: `R1${orderNo}`,
      amountFen: 300,
      totalFen: 1000,
      reason: '部分退款',
    });
    expect(first).toMatchObject({ refundNo: `R1${orderNo}`, state: 'SUCCESS', amountFen: 300 });
    const again = await provider().refund({
      orderNo,
      refundNo: `R1${orderNo}`,
      amountFen: 300,
      totalFen: 1000,
      reason: '部分退款',
    });
    expect(again.refundId).toBe(first.refundId);

    expect(
      (
        await rejection(
          provider().refund({
            orderNo,
            refundNo: `R2${orderNo}`,
            amountFen: 701,
            totalFen: 1000,
            reason: '超额',
          }),
        )
      ).kind,
    ).toBe('REFUND_REJECTED');
    const rest = await provider().refund({
      orderNo,
      refundNo: `R2${orderNo}`,
      amountFen: 700,
      totalFen: 1000,
      reason: '退余额',
    });
    expect(rest.state).toBe('SUCCESS');
    expect(rest.refundId).not.toBe(first.refundId);

    const after = await provider().query(orderNo);
    expect(after.state).toBe('REFUND');
    expect(after.amountFen).toBe(1000);
    expect(after.transactionId).toBeTruthy();
  });

  it('redelivers until our endpoint acknowledges', async () => {
    const { orderNo } = await createOrder(channel);
    let calls = 0;
    h.react = (n) => (n.orderNo === orderNo && ++calls < 3 ? 'fail' : 'ack');
    await h.sandbox.payInSandbox(channel, orderNo);
    expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('acked');
    const attempts = h.sandbox.deliveries.filter((d) => d.orderNo === orderNo);
    expect(attempts.map((d) => d.outcome)).toEqual(['not-acked', 'not-acked', 'acked']);
    expect(new Set(attempts.map((d) => d.notificationId)).size).toBe(1);
    const got = receivedFor(orderNo);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((n) => n.transactionId)).size).toBe(1);
  });

  it('gives up after the last retry of the schedule', async () => {
    const { orderNo } = await createOrder(channel);
    h.react = (n) => (n.orderNo === orderNo ? 'fail' : 'ack');
    await h.sandbox.payInSandbox(channel, orderNo);
    expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('exhausted');
    expect(h.sandbox.deliveries.filter((d) => d.orderNo === orderNo)).toHaveLength(4); // 1 + 3 retries
  });

  it('fault: the next deliveries fail in transit, then arrive', async () => {
    const { orderNo } = await createOrder(channel);
    h.sandbox.setFaults({ failNext: 2 }, channel);
    await h.sandbox.payInSandbox(channel, orderNo);
    expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('acked');
    const outcomes = h.sandbox.deliveries.filter((d) => d.orderNo === orderNo).map((d) => d.outcome);
    expect(outcomes).toEqual(['simulated-failure', 'simulated-failure', 'acked']);
    expect(receivedFor(orderNo)).toHaveLength(1);
  });

  it.each([false, true])(
    'fault: duplicate delivery (concurrently: %s) brings the same payment twice',
    async (concurrent) => {
      const { orderNo } = await createOrder(channel);
      h.sandbox.setFaults({ duplicateNext: 1, duplicateConcurrently: concurrent }, channel);
      await h.sandbox.payInSandbox(channel, orderNo);
      expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('acked');
      const got = receivedFor(orderNo);
      expect(got).toHaveLength(2);
      expect(got[0]!.transactionId).toBe(got[1]!.transactionId);
      expect(got[0]!.notificationId).toBe(got[1]!.notificationId);
      // The fault is used up: the next payment comes once.
      const next = await createOrder(channel);
      await h.sandbox.payInSandbox(channel, next.orderNo);
      await h.sandbox.notificationSettled(channel, next.orderNo);
      expect(receivedFor(next.orderNo)).toHaveLength(1);
    },
  );

  it('fault: a lost notification never arrives, and query still finds the payment', async () => {
    const { orderNo } = await createOrder(channel);
    h.sandbox.setFaults({ dropNext: 1 }, channel);
    await h.sandbox.payInSandbox(channel, orderNo);
    // Settled as dropped: the sandbox sent nothing and will send nothing for this payment.
    expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('dropped');
    expect(receivedFor(orderNo)).toHaveLength(0);
    expect((await provider().query(orderNo)).state).toBe('SUCCESS');
  });

  it('fault: delayed delivery', async () => {
    const { orderNo } = await createOrder(channel);
    h.sandbox.setFaults({ delayMs: 300 }, channel);
    const paidAt = Date.now();
    await h.sandbox.payInSandbox(channel, orderNo);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receivedFor(orderNo)).toHaveLength(0);
    expect(await h.sandbox.notificationSettled(channel, orderNo)).toBe('acked');
    expect(Date.now() - paidAt).toBeGreaterThanOrEqual(290);
  });

  it('fault: a platform system error is retryable and consumed', async () => {
    const { orderNo } = await createOrder(channel);
    h.sandbox.setFaults({ failApiNext: 1 }, channel);
    const error = await rejection(provider().query(orderNo));
    expect(error.kind).toBe('UNAVAILABLE');
    expect(error.isRetryable).toBe(true);
    expect((await provider().query(orderNo)).state).toBe('NOTPAY');
  });

  it('two payments of one order at once: exactly one succeeds', async () => {
    const { orderNo } = await createOrder(channel);
    const results = await Promise.allSettled([
      h.sandbox.payInSandbox(channel, orderNo),
      h.sandbox.payInSandbox(channel, orderNo),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toBeInstanceOf(SandboxPayError);
    await h.sandbox.notificationSettled(channel, orderNo);
    expect(receivedFor(orderNo)).toHaveLength(1);
  });
});

describe('the sandboxes check our signatures like the platforms', () => {
  it('WeChat: a request signed with another key is refused with 401 SIGN_ERROR', async () => {
    const forged = createWechatPayProvider(
      {
        ...wechatConfigOf(h),
        merchantPrivateKey: fixtureKey('platform', 'private'),
      },
      {},
    );
    const error = await rejection(forged.query(newOrderNo()));
    expect(error).toMatchObject({ kind: 'REJECTED', providerCode: 'SIGN_ERROR', httpStatus: 401 });
  });

  it('Alipay: a request signed with another key is refused with isv.invalid-signature', async () => {
    const forged = createAlipayProvider({
      ...alipayConfigOf(h),
      appPrivateKey: fixtureKey('merchant', 'private'),
    });
    const error = await rejection(forged.query(newOrderNo()));
    expect(error).toMatchObject({ kind: 'REJECTED', providerCode: 'isv.invalid-signature' });
  });

  it('answers signed by a key we do not trust are refused (WeChat and Alipay)', async () => {
    const { orderNo } = await createOrder('wx');
    const wx = createWechatPayProvider({
      ...wechatConfigOf(h),
      platformPublicKeys: {
        [Object.keys(wechatConfigOf(h).platformPublicKeys)[0]!]: fixtureKey('merchant', 'public'),
      },
    });
    expect((await rejection(wx.query(orderNo))).kind).toBe('BAD_RESPONSE');
    const ali = createAlipayProvider({
      ...alipayConfigOf(h),
      alipayPublicKey: fixtureKey('platform', 'public'),
    });
    expect((await rejection(ali.query(orderNo))).kind).toBe('BAD_RESPONSE');
  });

  it('WeChat: an answer under an unknown Wechatpay-Serial is refused', async () => {
    const wx = createWechatPayProvider({
      ...wechatConfigOf(h),
      platformPublicKeys: { PUB_KEY_ID_0000000000000000000000000000000001: fixtureKey('platform', 'public') },
    });
    const { orderNo } = await createOrder('wx');
    const error = await rejection(wx.query(orderNo));
    expect(error.kind).toBe('BAD_RESPONSE');
    expect(error.message).toContain('UNKNOWN_SERIAL');
  });

  it('a notification from somebody else is refused by our endpoint and redelivery continues', async () => {
    const response = await fetch(h.notifyUrl('ali'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'out_trade_no=KYX0000001&trade_status=TRADE_SUCCESS&total_amount=0.01&sign_type=RSA2&sign=AAAA',
    });
    expect(await response.text()).toBe('fail');
    expect(h.rejected.at(-1)?.reason).toBe('BAD_SIGNATURE');
  });

  it('no key material in provider errors', async () => {
    const forged = createWechatPayProvider({
      ...wechatConfigOf(h),
      merchantPrivateKey: fixtureKey('platform', 'private'),
    });
    const error = await rejection(forged.query(newOrderNo()));
    const text = `${error.message} ${JSON.stringify(error)} ${String(error.cause ?? '')}`;
    expect(text).not.toMatch(/BEGIN|PRIVATE|signature="/);
  });
});

describe('expiry', () => {
  it('an expired order cannot be paid; Alipay closes a scanned one by itself', async () => {
    let now = Date.now();
    const timed = await startHarness({ now: () => now });
    try {
      for (const channel of ['wx', 'ali'] as const) {
        const orderNo = newOrderNo();
        const { codeUrl } = await timed.providers[channel].createQr({
          orderNo,
          amountFen: 100,
          description: '过期测试',
          expireAt: new Date(now + 60_000),
          notifyUrl: timed.notifyUrl(channel),
        });
        await openPage(codeUrl);
        now += 61_000;
        expect((await openPage(codeUrl)).html).toContain('订单已过期');
        await expect(timed.sandbox.payInSandbox(channel, orderNo)).rejects.toMatchObject({
          code: 'ORDER_EXPIRED',
        });
        expect((await timed.providers[channel].query(orderNo)).state).toBe(
          channel === 'ali' ? 'CLOSED' : 'NOTPAY',
        );
        expect(await timed.providers[channel].close(orderNo)).toEqual({ state: 'CLOSED' });
      }
    } finally {
      await timed.close();
    }
  });

  it('Alipay: closing before the QR code was scanned reaches no trade; the code stays payable until expiry', async () => {
    const { orderNo } = await createOrder('ali');
    expect(await h.providers.ali.close(orderNo)).toEqual({ state: 'NOT_CREATED' });
    expect((await h.providers.ali.query(orderNo)).state).toBe('NOTPAY');
    await h.sandbox.payInSandbox('ali', orderNo);
    expect(await h.sandbox.notificationSettled('ali', orderNo)).toBe('acked');
    expect((await h.providers.ali.query(orderNo)).state).toBe('SUCCESS');
  });

  it('WeChat: close of an order never created reports NOT_CREATED; query says ORDER_NOT_FOUND', async () => {
    const orderNo = newOrderNo();
    expect(await h.providers.wx.close(orderNo)).toEqual({ state: 'NOT_CREATED' });
    expect((await rejection(h.providers.wx.query(orderNo))).kind).toBe('ORDER_NOT_FOUND');
  });
});

describe('POST /__dev/pay', () => {
  async function devPay(body: unknown) {
    const response = await fetch(`${h.baseUrl}/__dev/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { code: number; message: string; data: Record<string, unknown> | null };
  }

  it('pays the QR code created last for the order, as a phone would, in the envelope', async () => {
    const orderNo = newOrderNo();
    const input = {
      orderNo,
      amountFen: 2500,
      description: '开发控制测试',
      expireAt: new Date(Date.now() + 3_600_000),
      notifyUrl: '',
    };
    await h.providers.wx.createQr({ ...input, notifyUrl: h.notifyUrl('wx') });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await h.providers.ali.createQr({ ...input, notifyUrl: h.notifyUrl('ali') });

    const answer = await devPay({ orderNo });
    expect(answer).toMatchObject({ code: 0, data: { channel: 'ali', orderNo, amountFen: 2500 } });
    expect(await h.sandbox.notificationSettled('ali', orderNo)).toBe('acked');
    expect(receivedFor(orderNo)).toEqual([expect.objectContaining({ channel: 'ali', state: 'SUCCESS' })]);
    expect((await h.providers.wx.query(orderNo)).state).toBe('NOTPAY');

    expect(await devPay({ orderNo })).toEqual({ code: 1011, message: '该订单已支付', data: null });
    expect(await devPay({ orderNo, channel: 'wx' })).toMatchObject({ code: 0, data: { channel: 'wx' } });
  });

  it('answers unknown orders and bad bodies with a Chinese message', async () => {
    expect(await devPay({ orderNo: 'KYNOSUCHORDER' })).toEqual({
      code: 1010,
      message: '沙箱中没有该订单，请先获取支付二维码',
      data: null,
    });
    expect(await devPay({})).toMatchObject({ code: 1001, message: '订单号不能为空' });
    expect(await devPay({ orderNo: 'KYX', channel: 'unionpay' })).toMatchObject({
      code: 1001,
      message: '支付方式须为 wx 或 ali',
    });
  });

  it('sets faults and lists deliveries', async () => {
    const response = await fetch(`${h.baseUrl}/__dev/pay/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'wx', dropNext: 1 }),
    });
    const answer = (await response.json()) as {
      code: number;
      data: Record<PayChannel, { dropNext: number }>;
    };
    expect(answer.code).toBe(0);
    expect(answer.data.wx.dropNext).toBe(1);
    expect(answer.data.ali.dropNext).toBe(0);
    const { orderNo } = await createOrder('wx');
    await devPay({ orderNo });
    const list = (await (await fetch(`${h.baseUrl}/__dev/pay/deliveries?orderNo=${orderNo}`)).json()) as {
      data: { outcome: string }[];
    };
    expect(list.data.map((d) => d.outcome)).toEqual(['dropped']);
  });
});

function wechatConfigOf(harness: Harness) {
  return harness.sandboxConfig.wechatpay;
}

function alipayConfigOf(harness: Harness) {
  return harness.sandboxConfig.alipay;
}
