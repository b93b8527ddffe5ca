import { ErrorCode, reductionApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  apiAnswer,
  jsonResponse,
  recordMessages,
  renderRoutes,
  setUpPageTests,
  stubFetch,
} from '../../../testing/test-utils';
import { ReduceReportButton } from './reduce-report-button';

setUpPageTests();

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderButton() {
  return renderRoutes(
    [
      { path: '/check/report/:id', element: <ReduceReportButton orderId="c-1" /> },
      { path: '/reduction', element: <Where /> },
    ],
    '/check/report/c-1',
  );
}

describe('一键降重 from a check report', () => {
  it("asks first, sends the report's order to /order/trans and opens the 降重 order's payment", async () => {
    const toasts = recordMessages();
    const bodies: unknown[] = [];
    stubFetch((url, init) => {
      if (url.endsWith('/order/trans')) {
        bodies.push(JSON.parse(String(init.body)));
        return apiAnswer(reductionApi.orderTrans, {
          reductionId: 'r-9',
          orderId: 'o-9',
          orderNo: 'KY1',
          amount: '3.00',
          chars: 480,
          paragraphs: 2,
        });
      }
      return undefined;
    });
    renderButton();
    fireEvent.click(screen.getByRole('button', { name: '一键降重' }));
    expect(await screen.findByText('对本报告标红段落降重')).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: '生成降重订单' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/reduction?id=r-9&pay=1'));
    expect(bodies).toEqual([{ orderId: 'c-1', kind: 'reduction' }]);
    expect(toasts).toContainEqual({ type: 'success', content: '已生成降重订单：2 个标红段落，费用 3.00 元' });
  });

  it("shows the server's refusal and stays on the report", async () => {
    const toasts = recordMessages();
    stubFetch((url) =>
      url.endsWith('/order/trans')
        ? jsonResponse({
            code: ErrorCode.REDUCTION_BAD_INPUT,
            message: '该报告没有标红的重复段落，无需降重',
            data: null,
          })
        : undefined,
    );
    renderButton();
    fireEvent.click(screen.getByRole('button', { name: '一键降重' }));
    fireEvent.click(await screen.findByRole('button', { name: '生成降重订单' }));
    await waitFor(() => expect(toasts.map((m) => m.content)).toContain('该报告没有标红的重复段落，无需降重'));
    expect(screen.queryByTestId('where')).toBeNull();
    expect(screen.getByRole('button', { name: '一键降重' })).toBeTruthy();
  });
});
