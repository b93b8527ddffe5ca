import { ordersApi } from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { tablePagination } from '../../lib/pagination';
import { apiAnswer, installDomShims, renderRoutes, resetAppState, stubFetch } from '../../testing/test-utils';
import { validateInvoiceForm } from './components/invoice-form-modal';
import { OrderTabPage } from './components/order-tab-page';
import type { OrderTabExtension } from './extension';
import type { Order } from './types';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function order(n: number, over: Partial<Order> = {}): Order {
  return {
    orderId: `id-${n}`,
    orderNo: `KY20260302100000${String(n).padStart(6, '0')}`,
    serviceType: 'check',
    serviceTypeText: '论文查重',
    goodsId: 'g1',
    goodsName: '本科毕业论文查重',
    quantity: 12345,
    unit: '千字',
    unitSize: 1000,
    unitPriceFen: 200,
    unitPrice: '2.00',
    amountFen: 2600,
    amount: '26.00',
    refundedFen: 0,
    refundedAmount: '0.00',
    status: 'pending_payment',
    statusText: '待支付',
    payStatus: 0,
    payChannel: null,
    payChannelText: null,
    createdAt: '2026-03-02T02:00:00.000Z',
    paidAt: null,
    expireAt: new Date(Date.now() + 3600_000).toISOString(),
    serviceRef: null,
    meta: { title: '基于深度学习的图像识别研究' },
    canPay: true,
    canCancel: true,
    canDelete: false,
    autoRefund: false,
    autoRefundFailed: false,
    ...over,
  };
}

const PAGE_ONE = [
  order(1),
  order(2, {
    status: 'done',
    statusText: '已完成',
    payStatus: 1,
    canPay: false,
    canCancel: false,
    canDelete: true,
    amount: '1234.50',
    amountFen: 123450,
  }),
  order(3, { status: 'cancelled', statusText: '已取消', canPay: false, canCancel: false, canDelete: true }),
];

function server(total = 12) {
  const calls: { url: string; body: Record<string, unknown> }[] = [];
  const fetchMock = stubFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : {};
    calls.push({ url, body });
    if (url.endsWith('/order/list')) {
      const list = body.page === 2 ? [order(11), order(12)] : PAGE_ONE;
      return apiAnswer(ordersApi.orderList, { list, total });
    }
    return undefined;
  });
  return { calls, fetchMock };
}

function renderTab(extension?: OrderTabExtension<{ rate: string }>) {
  return renderRoutes(
    [{ path: '/user/order/check', element: <OrderTabPage tab="check" extension={extension} /> }],
    '/user/order/check',
  );
}

describe('pagination text (spec §9)', () => {
  it('shows 共 {0} 条', () => {
    expect(tablePagination(12, 1, () => {}, 10).showTotal?.(12, [1, 10])).toBe('共 12 条');
    expect(tablePagination(0, 1, () => {}, 10).showTotal?.(0, [0, 0])).toBe('共 0 条');
  });
});

describe('OrderTabPage', () => {
  it('lists the tab’s orders with amount in CNY, status in Chinese and 共 12 条', async () => {
    const { calls } = server();
    renderTab();
    await screen.findByText('KY20260302100000000001');
    expect(calls[0]?.url).toBe('/kyfw/web/v1/order/list');
    expect(calls[0]?.body).toEqual({ serviceType: 'check', page: 1, pageSize: 10 });
    expect(screen.getByText('共 12 条')).toBeTruthy();
    expect(screen.getByText('¥1,234.50')).toBeTruthy();
    expect(screen.getAllByText('¥26.00')).toHaveLength(2);
    expect(screen.getByText('待支付')).toBeTruthy();
    expect(screen.getByText('已完成')).toBeTruthy();
    expect(screen.getByText('已取消')).toBeTruthy();
    // 去支付 / 取消 only for the pending one, 删除 only for finished ones
    expect(screen.getAllByRole('button', { name: '去支付' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: '取消' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: '删除' })).toHaveLength(2);
  });

  it('goes to page 2', async () => {
    const { calls } = server();
    renderTab();
    await screen.findByText('KY20260302100000000001');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('KY20260302100000000012');
    expect(calls.at(-1)?.body).toEqual({ serviceType: 'check', page: 2, pageSize: 10 });
  });

  it('deletes an order only after confirmation', async () => {
    const { calls } = server();
    renderTab();
    await screen.findByText('KY20260302100000000002');
    const row = screen.getByText('KY20260302100000000002').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(calls.some((c) => c.url.endsWith('/order/delete'))).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/order/delete'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/order/delete'))?.body).toEqual({ orderId: 'id-2' });
  });

  it('confirms a delete with what it means for the order’s status', async () => {
    const closedOver = { canPay: false, canCancel: false, canDelete: true };
    const rows: { order: Order; text: string }[] = [
      {
        order: order(21, { ...closedOver, status: 'done', statusText: '已完成', payStatus: 1 }),
        text: '删除后该订单将不再显示在订单列表中；支付记录与发票仍会保留。',
      },
      {
        order: order(22, { ...closedOver, status: 'cancelled', statusText: '已取消' }),
        text: '该订单已取消，未产生费用；删除后将不再显示在订单列表中。',
      },
      {
        order: order(23, { ...closedOver, status: 'expired', statusText: '已过期' }),
        text: '该订单已过期未支付，未产生费用；删除后将不再显示在订单列表中。',
      },
      {
        order: order(24, {
          ...closedOver,
          status: 'refunded',
          statusText: '已退款',
          refundedFen: 2600,
          refundedAmount: '26.00',
        }),
        text: '该订单已全额退款；删除后将不再显示在订单列表中，支付与退款记录仍会保留。',
      },
    ];
    stubFetch((url) =>
      url.endsWith('/order/list')
        ? apiAnswer(ordersApi.orderList, { list: rows.map((r) => r.order), total: rows.length })
        : undefined,
    );
    renderTab();
    await screen.findByText(rows[0].order.orderNo);
    for (const { order: o, text } of rows) {
      const before = document.querySelectorAll('.ant-popconfirm').length;
      const row = screen.getByText(o.orderNo).closest('tr') as HTMLElement;
      fireEvent.click(within(row).getByRole('button', { name: '删除' }));
      await waitFor(() => expect(document.querySelectorAll('.ant-popconfirm').length).toBe(before + 1));
      const confirm = [...document.querySelectorAll<HTMLElement>('.ant-popconfirm')].at(-1) as HTMLElement;
      expect(within(confirm).getByText('确定删除该订单吗？')).toBeTruthy();
      expect(confirm.querySelector('.ant-popconfirm-description')?.textContent, o.status).toBe(text);
      fireEvent.click(within(confirm).getByRole('button', { name: '再想想' }));
    }
  });

  it('takes columns, actions and data from the service’s extension', async () => {
    server();
    const loadExtra = vi.fn(async (orders: Order[]) =>
      Object.fromEntries(orders.map((o, i) => [o.orderId, { rate: `${10 + i}.0%` }])),
    );
    const onAction = vi.fn();
    renderTab({
      loadExtra,
      columns: [{ key: 'rate', title: '复制比', render: (_o, ctx) => ctx.extra?.rate ?? '…' }],
      actions: (o) => (
        <button type="button" onClick={() => onAction(o.orderId)}>
          查看报告
        </button>
      ),
    });
    expect((await screen.findAllByText('复制比')).length).toBeGreaterThan(0);
    await screen.findByText('11.0%');
    expect(loadExtra).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getAllByRole('button', { name: '查看报告' })[2] as HTMLElement);
    expect(onAction).toHaveBeenCalledWith('id-3');
  });
});

describe('invoice form validation', () => {
  const ok = {
    titleType: 'company' as const,
    title: '北京某某科技有限公司',
    taxpayerId: '91110000802100433B',
    email: 'a@b.cn',
  };

  it('accepts a company title with a valid unified social credit code', () => {
    expect(validateInvoiceForm(ok)).toBeNull();
    expect(validateInvoiceForm({ ...ok, taxpayerId: '91110000802100433b' })).toBeNull();
  });

  it('gives the server’s messages', () => {
    expect(validateInvoiceForm({ ...ok, title: ' ' })).toBe('请填写发票抬头');
    expect(validateInvoiceForm({ ...ok, taxpayerId: '' })).toBe('企业抬头须填写纳税人识别号');
    expect(validateInvoiceForm({ ...ok, taxpayerId: '91110000802100433C' })).toBe(
      '请输入正确的纳税人识别号（18位统一社会信用代码）',
    );
    expect(validateInvoiceForm({ ...ok, email: '' })).toBe('请填写接收发票的邮箱');
    expect(validateInvoiceForm({ ...ok, email: 'a@b' })).toBe('请输入正确的邮箱地址');
    expect(validateInvoiceForm({ titleType: 'personal', title: '张三', email: 'zs@example.com' })).toBeNull();
  });
});
