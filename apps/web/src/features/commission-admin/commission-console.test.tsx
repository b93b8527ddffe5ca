import { type ConsoleCommission, consoleCommissionApi } from '@kyfw/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { CommissionConsolePage } from './commission-console-page';

setUpPageTests();

function commission(no: string, dueDate: string | null, overdue: boolean): ConsoleCommission {
  return {
    commissionId: `6f1c1a52-7d7e-4a53-9d55-0d3c3f1a2b${no.slice(-2)}`,
    commissionNo: no,
    service: 'search_report',
    serviceName: '收录引用检索报告',
    reportName: '检索报告',
    title: `论文 ${no.slice(-2)}`,
    status: 'processing',
    statusText: '处理中',
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
