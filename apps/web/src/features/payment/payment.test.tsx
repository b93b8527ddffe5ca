import { ordersApi } from '@kyfw/contracts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../../app/provider';
import { uiStore } from '../../stores/ui-store';
import {
  apiAnswer,
  installDomShims,
  recordMessages,
  resetAppState,
  stubFetch,
} from '../../testing/test-utils';
import { PaymentDialog } from './components/payment-dialog';
import { formatRemaining } from './texts';
import type { PayQr, PayStatus } from './types';

vi.setConfig({ testTimeout: 20_000 });

const NOW = new Date('2026-03-02T10:00:00+08:00').getTime();
const ENDPOINTS = {
  qrPayCodeUrl: '/freeCheck/freeCheckQrPayCode',
  payStatusUrl: '/freeCheck/orderPayStatus',
};

function qrFor(payType: 'wx' | 'ali', codeUrl = `http://127.0.0.1:3000/__sandbox/pay/${payType}/KY1`): PayQr {
  return {
    codeUrl,
    orderNo: 'KY20260302100000123456',
    outTradeNo: 'KY20260302100000123456',
    payType,
    amountFen: 2600,
    amount: '26.00',
    expireAt: new Date(NOW + 2 * 3600_000).toISOString(),
  };
}

function pending(over: Partial<PayStatus> = {}): PayStatus {
  return {
    payStatus: 0,
    status: 'pending_payment',
    orderNo: 'KY20260302100000123456',
    payChannel: null,
    paidAt: null,
    expireAt: new Date(NOW + 2 * 3600_000).toISOString(),
    offlinePending: false,
    ...over,
  };
}

interface Server {
  qrCalls: { url: string; body: { orderId: string; payType: string } }[];
  statusCalls: number;
  status: PayStatus;
  qr: (payType: 'wx' | 'ali') => PayQr;
}

function fakeServer(): Server {
  const server: Server = { qrCalls: [], statusCalls: 0, status: pending(), qr: (t) => qrFor(t) };
  stubFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : {};
    if (url.endsWith(ENDPOINTS.qrPayCodeUrl)) {
      server.qrCalls.push({ url, body });
      return apiAnswer(ordersApi.orderPay, server.qr(body.payType));
    }
    if (url.endsWith(ENDPOINTS.payStatusUrl)) {
      server.statusCalls += 1;
      return apiAnswer(ordersApi.orderPayStatus, server.status);
    }
    if (url.endsWith('/payment/offline/info')) {
      return apiAnswer(ordersApi.offlineInfo, {
        enabled: true,
        bankName: '中国工商银行北京海淀支行',
        accountName: '北京科研服务有限公司',
        accountNo: '0200 0045 0902 0000 000',
        note: '转账后请上传凭证',
        proofMaxBytes: 5 * 1024 * 1024,
        proofTypes: ['image/png', 'image/jpeg', 'application/pdf'],
      });
    }
    return undefined;
  });
  return server;
}

/** Lets timers run `ms` forward and the answers they triggered settle. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function renderDialog(props: { open?: boolean; onPaid?: (s: PayStatus) => void; onClose?: () => void } = {}) {
  const onClose = props.onClose ?? vi.fn();
  const ui = (open: boolean) => (
    <AppProvider queryClient={createQueryClient()}>
      <PaymentDialog
        {...ENDPOINTS}
        open={open}
        orderId="order-1"
        goodsName="本科毕业论文查重"
        onClose={onClose}
        onPaid={props.onPaid}
      />
    </AppProvider>
  );
  const utils = render(ui(props.open ?? true));
  return { ...utils, close: () => utils.rerender(ui(false)), onClose };
}

beforeAll(async () => {
  installDomShims();
  // Loaded once here so the dialog's lazy import resolves without real I/O under fake timers.
  await import('qrcode');
});
beforeEach(() => {
  resetAppState();
  vi.useFakeTimers({
    now: NOW,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PaymentDialog', () => {
  it('draws the WeChat code locally, shows the amount in CNY and a countdown to the expiry', async () => {
    const server = fakeServer();
    renderDialog();
    await advance(50);
    expect(server.qrCalls).toEqual([
      { url: '/kyfw/web/v1/freeCheck/freeCheckQrPayCode', body: { orderId: 'order-1', payType: 'wx' } },
    ]);
    await advance(50);
    const image = screen.getByAltText('微信支付二维码');
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(image.getAttribute('data-code')).toBe(qrFor('wx').codeUrl);
    expect(screen.getByTestId('pay-amount').textContent).toBe('¥26.00');
    expect(screen.getByText('本科毕业论文查重')).toBeTruthy();
    expect(screen.getByTestId('pay-countdown').textContent).toBe('02:00:00');
    await advance(61_000);
    expect(screen.getByTestId('pay-countdown').textContent).toBe('01:58:59');
  });

  it('polls the pay status every 3 s and on payment toasts 支付成功 and calls onPaid once', async () => {
    const server = fakeServer();
    const toasts = recordMessages();
    const onPaid = vi.fn();
    const { onClose } = renderDialog({ onPaid });
    await advance(50);
    expect(server.statusCalls).toBe(1);
    await advance(3000);
    expect(server.statusCalls).toBe(2);
    await advance(3000);
    expect(server.statusCalls).toBe(3);
    expect(onPaid).not.toHaveBeenCalled();

    server.status = pending({
      payStatus: 1,
      status: 'paid',
      payChannel: 'wx',
      paidAt: new Date().toISOString(),
    });
    await advance(3000);
    expect(server.statusCalls).toBe(4);
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(onPaid.mock.calls[0]?.[0]).toMatchObject({ payStatus: 1, status: 'paid' });
    expect(toasts).toContainEqual({ type: 'success', content: '支付成功' });
    expect(onClose).toHaveBeenCalledTimes(1);
    // polling stops after success
    await advance(12_000);
    expect(server.statusCalls).toBe(4);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('asks for the Alipay code when 支付宝 is chosen', async () => {
    const server = fakeServer();
    renderDialog();
    await advance(50);
    fireEvent.click(screen.getByRole('radio', { name: /支付宝/ }));
    await advance(50);
    expect(server.qrCalls.map((c) => c.body.payType)).toEqual(['wx', 'ali']);
    await advance(50);
    expect(screen.getByAltText('支付宝支付二维码')).toBeTruthy();
    expect(screen.getByText('请使用支付宝扫一扫完成支付')).toBeTruthy();
  });

  it('offers the sandbox page in a new window only for a sandbox code', async () => {
    const server = fakeServer();
    renderDialog();
    await advance(50);
    const link = screen.getByRole('link', { name: /在新窗口打开模拟支付页/ });
    expect(link.getAttribute('href')).toBe(qrFor('wx').codeUrl);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByText('沙箱')).toBeTruthy();

    cleanup();
    server.qr = (t) => qrFor(t, 'weixin://wxpay/bizpayurl?pr=abc123');
    renderDialog();
    await advance(50);
    await advance(50);
    expect(screen.getByAltText('微信支付二维码')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /模拟支付/ })).toBeNull();
  });

  it('stops polling when closed and leaves the order alone', async () => {
    const server = fakeServer();
    const { close } = renderDialog();
    await advance(50);
    expect(uiStore.getState().payFlag).toBe('order-1');
    close();
    await advance(50);
    const calls = server.statusCalls;
    await advance(15_000);
    expect(server.statusCalls).toBe(calls);
    expect(uiStore.getState().payFlag).toBe('');
    expect(server.qrCalls).toHaveLength(1);
  });

  it('shows 订单已过期 when the countdown runs out', async () => {
    const server = fakeServer();
    server.qr = (t) => ({ ...qrFor(t), expireAt: new Date(NOW + 5_000).toISOString() });
    server.status = pending({ expireAt: new Date(NOW + 5_000).toISOString() });
    renderDialog();
    await advance(50);
    expect(screen.getByTestId('pay-countdown').textContent).toBe('00:05');
    await advance(5_000);
    expect(screen.getByText('订单已过期，请重新下单')).toBeTruthy();
    expect(screen.queryByAltText('微信支付二维码')).toBeNull();
  });

  it('shows the bank account and the order number for 线下转账', async () => {
    fakeServer();
    renderDialog();
    await advance(50);
    fireEvent.click(screen.getByRole('radio', { name: /线下转账/ }));
    await advance(50);
    expect(screen.getByText('中国工商银行北京海淀支行')).toBeTruthy();
    expect(screen.getByText('0200 0045 0902 0000 000')).toBeTruthy();
    expect(screen.getByText('订单号 KY20260302100000123456')).toBeTruthy();
    expect(screen.getByRole('button', { name: /上传转账凭证/ })).toBeTruthy();
  });
});

describe('formatRemaining', () => {
  it('prints hours only when there are any, and rounds up to the second', () => {
    expect(formatRemaining(2 * 3600_000)).toBe('02:00:00');
    expect(formatRemaining(59_001)).toBe('01:00');
    expect(formatRemaining(5_000)).toBe('00:05');
    expect(formatRemaining(0)).toBe('00:00');
    expect(formatRemaining(-10)).toBe('00:00');
  });
});
