import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  installDomShims,
  jsonResponse,
  makeUserInfo,
  renderRoutes,
  resetAppState,
  stubFetch,
} from '../../testing/test-utils';
import { sessionStore } from '../auth';
import { ReductionWorkspace } from './index';
import type { ReductionPrice, ReductionView } from './types';

// The 降重 / 降AIGC workspace (issue 23): the price before the dialog for an upload too, and the
// payment dialog named after the service paid for.

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => {
  resetAppState();
  Cookies.set('token', 't-1');
  sessionStore.setState({ userInfo: makeUserInfo(), checked: true });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ok = (data: unknown) => jsonResponse({ code: 0, message: 'ok', data });

function price(kind: ReductionPrice['kind'], chars: number | null): ReductionPrice {
  return {
    goodsId: kind === 'reduction' ? 'reduction_standard' : 'aigc_reduction_standard',
    name: kind === 'reduction' ? '降重' : '降AIGC',
    unitPrice: '3.00',
    unit: '千字',
    unitSize: 1000,
    kind,
    kindName: kind === 'reduction' ? '降重' : '降AIGC',
    chars,
    amountFen: chars ? 300 : null,
  } as ReductionPrice;
}

describe('降重 workspace', () => {
  it('shows the unit price before an upload (the amount follows the characters the server reads)', async () => {
    const asked: unknown[] = [];
    stubFetch((url, init) => {
      if (url.endsWith('/weightReduction/getGoodsPrice')) {
        asked.push(JSON.parse(String(init.body)));
        return ok(price('reduction', null));
      }
      return undefined;
    });
    renderRoutes([{ path: '/reduction', element: <ReductionWorkspace kind="reduction" /> }], '/reduction');
    fireEvent.click(screen.getByText('上传文件'));
    const shown = await screen.findByTestId('reduction-file-price');
    expect(shown.textContent).toBe(
      '价格 3.00 元/千字，按文件中识别出的正文字数计费，字数与金额在上传后的支付窗口中显示。',
    );
    expect(asked).toContainEqual({ chars: 0 });
  });

  it('titles the payment dialog of a 降AIGC order 支付降AIGC费用', async () => {
    const view: Partial<ReductionView> = {
      reductionId: 'r-1',
      kind: 'aigc_reduction',
      kindName: '降AIGC',
      source: 'text',
      title: '论文',
      chars: 1200,
      orderId: 'o-1',
      status: 'ordered',
      statusText: '待支付',
      progress: 0,
    };
    stubFetch((url) => (url.endsWith('/weightReduction/query') ? ok(view) : undefined));
    renderRoutes(
      [{ path: '/reduction/aigc', element: <ReductionWorkspace kind="aigc_reduction" /> }],
      '/reduction/aigc?id=r-1&pay=1',
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('支付降AIGC费用')).toBeTruthy();
    expect(screen.queryByText('支付降重费用')).toBeNull();
  });
});
