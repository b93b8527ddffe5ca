import { type ConsoleOrderDetail, consoleApi, type Staff } from '@kyfw/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { OrderDrawer } from './components/order-drawer';

// A refund is a money action: the drawer fills in what is left to refund and nothing is sent before
// the operator confirms a dialog naming the amount and the order (issue 23, decision 0031).

setUpPageTests();

const finance: Staff = {
  username: 'qianli',
  role: 'finance',
  roleText: '财务',
  expiresAt: '2026-12-31T10:00:00.000Z',
};

const order: ConsoleOrderDetail = {
  orderId: 'o1',
  orderNo: 'KY20261202100000123456',
  serviceType: 'tech_evaluation',
  serviceTypeText: '科技成果评价',
  goodsId: 'tech_evaluation_quote',
  goodsName: '科技成果评价',
  quantity: 3800,
  unit: '元',
  unitSize: 1,
  unitPriceFen: 100,
  unitPrice: '1.00',
  amountFen: 380_000,
  amount: '3800.00',
  refundedFen: 0,
  refundedAmount: '0.00',
  status: 'processing',
  statusText: '处理中',
  autoRefund: false,
  autoRefundFailed: false,
  payStatus: 1,
  payChannel: 'wx',
  payChannelText: '微信支付',
  createdAt: '2026-12-01T02:00:00.000Z',
  paidAt: '2026-12-01T02:05:00.000Z',
  expireAt: '2026-12-01T04:00:00.000Z',
  serviceRef: 'c1',
  meta: {},
  canPay: false,
  canCancel: false,
  canDelete: false,
  phone: '13912345678',
  userId: 'u1',
  history: [],
  payments: [
    {
      paymentId: 'p1',
      channel: 'wx',
      transactionId: '4200000000000001',
      amountFen: 380_000,
      amount: '3800.00',
      paidAt: '2026-12-01T02:05:00.000Z',
      status: 'accepted',
      source: 'notify',
      flagged: false,
      flagReason: null,
      refundedFen: 0,
    },
  ],
  refunds: [],
};

function renderDrawer() {
  const fetch = stubFetch((url) => {
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, finance);
    if (url.endsWith(consoleApi.orderDetail.path)) return apiAnswer(consoleApi.orderDetail, order);
    if (url.endsWith(consoleApi.refund.path))
      return apiAnswer(consoleApi.refund, {
        refundNo: 'RF20261202100000123456',
        amountFen: 380_000,
        amount: '3800.00',
        status: 'succeeded',
        statusText: '已退款',
      });
    return undefined;
  });
  renderRoutes(
    [{ path: '/admin/orders', element: <OrderDrawer orderNo={order.orderNo} onClose={() => {}} /> }],
    '/admin/orders',
  );
  return fetch;
}

/** The confirmation dialog (antd keeps its node after it closes, so only its appearance is awaited). */
const openDialog = () =>
  [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((el) =>
    el.textContent?.includes('确认退款'),
  ) ?? null;

const confirmDialog = () =>
  waitFor(() => {
    const el = openDialog();
    expect(el).not.toBeNull();
    return el!;
  });

const refundCalls = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.filter(([u]) => String(u).endsWith(consoleApi.refund.path));

describe('refund in the order drawer', () => {
  it('fills in what is left, and refunds only after a dialog naming ¥ and the order is confirmed', async () => {
    const fetch = renderDrawer();
    const amount = (await screen.findByLabelText(/退款金额/)) as HTMLInputElement;
    await waitFor(() => expect(amount.value).toBe('3800.00'));
    fireEvent.change(screen.getByLabelText('退款原因'), { target: { value: '用户申请退款' } });
    fireEvent.click(screen.getByRole('button', { name: '提交退款' }));

    const dialog = await confirmDialog();
    expect(within(dialog).getByText(order.orderNo)).toBeTruthy();
    expect(within(dialog).getAllByText('¥3,800.00').length).toBeGreaterThan(0);
    expect(within(dialog).getByText(/全额退回/)).toBeTruthy();
    // Nothing has been sent yet.
    expect(refundCalls(fetch)).toHaveLength(0);

    // 再想想 closes it and sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: '再想想' }));
    expect(refundCalls(fetch)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: '提交退款' }));
    const again = await confirmDialog();
    fireEvent.click(within(again).getByRole('button', { name: /确认退款 ¥3,800\.00/ }));
    await waitFor(() => expect(refundCalls(fetch)).toHaveLength(1));
    expect(JSON.parse(String(refundCalls(fetch)[0]![1]!.body))).toEqual({
      orderNo: order.orderNo,
      amountFen: 380_000,
      reason: '用户申请退款',
    });
  });

  it('a blank amount is refused in the form, nothing is sent', async () => {
    const fetch = renderDrawer();
    const amount = (await screen.findByLabelText(/退款金额/)) as HTMLInputElement;
    await waitFor(() => expect(amount.value).toBe('3800.00'));
    fireEvent.change(amount, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('退款原因'), { target: { value: '用户申请退款' } });
    fireEvent.click(screen.getByRole('button', { name: '提交退款' }));
    expect(await screen.findByText('请填写退款金额')).toBeTruthy();
    expect(openDialog()).toBeNull();
    expect(refundCalls(fetch)).toHaveLength(0);
  });
});
