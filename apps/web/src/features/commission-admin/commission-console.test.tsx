import { type ConsoleCommission, consoleCommissionApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { CommissionConsolePage } from './commission-console-page';

setUpPageTests();

function commission(
  no: string,
  dueDate: string | null,
  overdue: boolean,
  status: ConsoleCommission['status'] = 'processing',
): ConsoleCommission {
  return {
    commissionId: `6f1c1a52-7d7e-4a53-9d55-0d3c3f1a2b${no.slice(-2)}`,
    commissionNo: no,
    service: 'search_report',
    serviceName: '收录引用检索报告',
    reportName: '检索报告',
    title: `论文 ${no.slice(-2)}`,
    status,
    statusText: status === 'quoting' ? '待报价' : '处理中',
    pricing: 'per_item',
    quantity: 2,
    unit: '篇·库',
    amountFen: 3000,
    amount: '30.00',
    quoteNote: null,
    orderId: null,
    orderNo: null,
    canPay: false,
    canCancel: false,
    deadline: '2026-12-20',
    dueDate,
    overdue,
    delivery: 'pdf',
    copies: 0,
    timeline: [],
    files: [],
    reports: [],
    createdAt: '2026-11-20T02:00:00.000Z',
    userPhone: '13912345678',
    contactName: '王老师',
    contactPhone: '13912345678',
  };
}

describe('委托办理 queue', () => {
  it('shows each commission’s 预计完成日期 in the server’s order and flags 已超期', async () => {
    stubFetch((url) =>
      url.endsWith(consoleCommissionApi.list.path)
        ? apiAnswer(consoleCommissionApi.list, {
            total: 2,
            counts: { quoting: 0, pending_payment: 0, processing: 2, done: 0, cancelled: 0, refunded: 0 },
            list: [
              commission('WT20261120100000000001', '2026-11-25', true),
              commission('WT20261120100000000002', '2026-11-30', false),
            ],
          })
        : undefined,
    );
    renderRoutes([{ path: '/', element: <CommissionConsolePage /> }], '/');
    expect(await screen.findByRole('columnheader', { name: '预计完成日期' })).toBeTruthy();
    await screen.findByText('WT20261120100000000002');
    const rows = screen.getAllByRole('row');
    const late = rows.find((r) => r.textContent?.includes('WT20261120100000000001'))!;
    const onTime = rows.find((r) => r.textContent?.includes('WT20261120100000000002'))!;
    expect(rows.indexOf(late)).toBeLessThan(rows.indexOf(onTime));
    expect(within(late).getByText('2026-11-25')).toBeTruthy();
    expect(within(late).getByText('已超期')).toBeTruthy();
    expect(within(onTime).getByText('2026-11-30')).toBeTruthy();
    expect(within(onTime).queryByText('已超期')).toBeNull();
    // The client's own wish beside the promise.
    expect(within(late).getByText('客户期望 2026-12-20')).toBeTruthy();
  });
});

describe('委托办理 opens where work waits', () => {
  const counts = { quoting: 1, pending_payment: 3, processing: 2, done: 7, cancelled: 0, refunded: 1 };

  it('opens on 待报价 when a request waits for a quote, counts each tab, and searches by number, phone or contact', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubFetch((url, init) => {
      if (!url.endsWith(consoleCommissionApi.list.path)) return undefined;
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      bodies.push(body);
      const quoting = commission('WT20261120100000000009', null, false, 'quoting');
      return apiAnswer(consoleCommissionApi.list, {
        total: 1,
        counts: body.q
          ? { ...counts, quoting: 1, processing: 0, pending_payment: 0, done: 0, refunded: 0 }
          : counts,
        list: body.status === 'quoting' ? [quoting] : [],
      });
    });
    renderRoutes([{ path: '/', element: <CommissionConsolePage /> }], '/');
    // The tab that opened is 待报价, with the quote request listed.
    await screen.findByText('WT20261120100000000009');
    expect(bodies.at(-1)).toMatchObject({ status: 'quoting' });
    const selected = document.querySelector('.ant-segmented-item-selected');
    expect(selected?.textContent).toBe('待报价 1');
    for (const label of ['处理中 2', '待支付 3', '已完成 7', '已退款 1', '已取消 0', '全部 14'])
      expect(screen.getByText(label)).toBeTruthy();

    const box = screen.getByPlaceholderText('委托编号 / 手机号 / 联系人');
    fireEvent.change(box, { target: { value: ' 13912345678 ' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(bodies.at(-1)).toMatchObject({ q: '13912345678', status: 'quoting', page: 1 }),
    );
    await screen.findByText('处理中 0');
  });

  it('opens on 处理中 when nothing waits for a quote, and on 全部 when no work waits', async () => {
    stubFetch((url) => {
      if (!url.endsWith(consoleCommissionApi.list.path)) return undefined;
      return apiAnswer(consoleCommissionApi.list, {
        total: 0,
        counts: { ...counts, quoting: 0 },
        list: [],
      });
    });
    const { openingTab } = await import('./commission-console-page');
    renderRoutes([{ path: '/', element: <CommissionConsolePage /> }], '/');
    await waitFor(() =>
      expect(document.querySelector('.ant-segmented-item-selected')?.textContent).toBe('处理中 2'),
    );
    expect(openingTab({ ...counts, quoting: 0, processing: 0 })).toBe('all');
  });
});
