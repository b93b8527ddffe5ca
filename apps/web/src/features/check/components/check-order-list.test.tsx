import { checkApi } from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiAnswer,
  installDomShims,
  renderRoutes,
  resetAppState,
  stubFetch,
} from '../../../testing/test-utils';
import type { CheckListItem } from '../types';
import { CheckOrderList } from './check-order-list';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

let n = 0;
/** A row of /freeCheck/orderList as the server sends it (docs/api/check.md, "My checks"). */
function row(over: Partial<CheckListItem>): CheckListItem {
  n += 1;
  return {
    orderId: `c-${n}`,
    free: false,
    kind: 'similarity',
    checkStatus: 'pending',
    checkStatusText: '待支付',
    stage: null,
    stageText: null,
    progress: 0,
    failureReason: null,
    canRetry: false,
    reportReady: false,
    orderNo: `KY2026030210000000${String(n).padStart(4, '0')}`,
    title: `论文${n}`,
    author: '张三',
    fileName: `paper-${n}.docx`,
    goodsId: 'g1',
    goodsName: '本科毕业论文查重',
    chars: 12345,
    amount: '26.00',
    amountFen: 2600,
    payStatus: 0,
    orderStatus: 'pending_payment',
    createdAt: '2026-03-02T02:00:00.000Z',
    finishedAt: null,
    reportNo: null,
    ratio: null,
    aigcReliable: null,
    actions: { view: false, download: false, pay: true, start: false, retry: false, delete: true },
    ...over,
  };
}

const done = { view: true, download: true, pay: false, start: false, retry: false, delete: true };
const failed = { view: false, download: false, pay: false, start: false, retry: true, delete: true };
const closed = { view: false, download: false, pay: false, start: false, retry: false, delete: true };
const running = { view: false, download: false, pay: false, start: false, retry: false, delete: false };

/** Each row and the confirmation its 删除 must show (what the server does to that check). */
const CASES: { name: string; item: CheckListItem; text: string }[] = [
  {
    name: 'awaiting payment',
    item: row({}),
    text: '该订单尚未支付，删除将同时取消订单，不会产生任何费用（如已扫码付款，款项将自动全额退回）；上传的论文将被清除，无法恢复。',
  },
  {
    name: 'unpaid, order expired',
    item: row({ checkStatusText: '订单已过期', orderStatus: 'expired', actions: closed }),
    text: '该订单已取消或已过期，未产生费用（如仍有款项到账，将自动全额退回）；删除后上传的论文将被清除，无法恢复。',
  },
  {
    name: 'unpaid, order cancelled',
    item: row({ checkStatusText: '订单已取消', orderStatus: 'cancelled', actions: closed }),
    text: '该订单已取消或已过期，未产生费用（如仍有款项到账，将自动全额退回）；删除后上传的论文将被清除，无法恢复。',
  },
  {
    name: 'free, not started',
    item: row({
      free: true,
      checkStatusText: '待开始',
      orderStatus: null,
      amount: '0.00',
      amountFen: 0,
      actions: { ...closed, start: true },
    }),
    text: '该免费检测尚未开始，删除不会用掉免费查重次数；上传的论文将被清除，无法恢复。',
  },
  {
    name: 'paid and done',
    item: row({
      checkStatus: 'done',
      checkStatusText: '已完成',
      payStatus: 1,
      orderStatus: 'done',
      actions: done,
    }),
    text: '删除后检测报告与上传的论文将被永久删除，无法再查看或下载；订单与支付记录仍会保留，已下载或打印的报告仍可凭报告编号和验证码核验真伪。',
  },
  {
    name: 'free and done',
    item: row({
      free: true,
      checkStatus: 'done',
      checkStatusText: '已完成',
      payStatus: 1,
      orderStatus: null,
      actions: done,
    }),
    text: '删除后检测报告与上传的论文将被永久删除，无法再查看或下载；已下载或打印的报告仍可凭报告编号和验证码核验真伪。',
  },
  {
    name: 'done, then refunded',
    item: row({ checkStatus: 'done', checkStatusText: '已完成', orderStatus: 'refunded', actions: done }),
    text: '该订单已全额退款。删除后检测报告与上传的论文将被永久删除，无法再查看或下载；支付与退款记录仍会保留。',
  },
  {
    name: 'paid and failed',
    item: row({
      checkStatus: 'failed',
      checkStatusText: '检测失败',
      payStatus: 1,
      orderStatus: 'paid',
      actions: failed,
    }),
    text: '该检测未能完成。删除后上传的论文将被清除，无法再重新检测；订单与支付记录仍会保留，删除不影响退款。',
  },
  {
    name: 'failed and refunded',
    item: row({
      checkStatus: 'failed',
      checkStatusText: '检测失败',
      orderStatus: 'refunded',
      actions: { ...failed, retry: false },
    }),
    text: '该订单已全额退款。删除后上传的论文将被清除，无法恢复；支付与退款记录仍会保留。',
  },
  {
    name: 'free and failed',
    item: row({
      free: true,
      checkStatus: 'failed',
      checkStatusText: '检测失败',
      orderStatus: null,
      actions: failed,
    }),
    text: '该检测未能完成，免费查重次数已退回。删除后上传的论文将被清除，无法再重新检测。',
  },
];

/** Rows that cannot be deleted now, and why (the server's 4010 words). */
const BLOCKED: { name: string; item: CheckListItem; reason: string }[] = [
  {
    name: 'paid, running',
    item: row({
      checkStatus: 'running',
      checkStatusText: '检测中',
      progress: 40,
      payStatus: 1,
      orderStatus: 'processing',
      actions: running,
    }),
    reason: '检测进行中，完成后才能删除',
  },
  {
    name: 'paid, queued',
    item: row({
      checkStatus: 'queued',
      checkStatusText: '排队中',
      payStatus: 1,
      orderStatus: 'paid',
      actions: running,
    }),
    reason: '检测进行中，完成后才能删除',
  },
  {
    name: 'paid, about to start',
    item: row({ checkStatusText: '待检测', payStatus: 1, orderStatus: 'paid', actions: running }),
    reason: '订单已支付，检测即将开始，完成后才能删除',
  },
];

function serve(list: CheckListItem[]) {
  const calls: { url: string; body: Record<string, unknown> }[] = [];
  stubFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : {};
    calls.push({ url, body });
    if (url.endsWith('/freeCheck/orderList')) {
      return apiAnswer(checkApi.orderList, { list, total: list.length });
    }
    if (url.endsWith('/freeCheck/goodsList')) return apiAnswer(checkApi.goodsList, []);
    if (url.endsWith('/freeCheck/deleteOrder')) return apiAnswer(checkApi.deleteOrder, null, '删除成功');
    return undefined;
  });
  return calls;
}

function renderList() {
  return renderRoutes([{ path: '/user/order/check', element: <CheckOrderList /> }], '/user/order/check');
}

function rowOf(item: CheckListItem): HTMLElement {
  return screen.getByText(item.orderNo).closest('tr') as HTMLElement;
}

/** Opens the row's 删除 confirmation and returns it. */
async function openDelete(item: CheckListItem): Promise<HTMLElement> {
  const before = document.querySelectorAll('.ant-popconfirm').length;
  fireEvent.click(within(rowOf(item)).getByRole('button', { name: '删除' }));
  await waitFor(() => expect(document.querySelectorAll('.ant-popconfirm').length).toBe(before + 1));
  const all = document.querySelectorAll<HTMLElement>('.ant-popconfirm');
  return all[all.length - 1];
}

describe('查重订单: the delete confirmation fits the row', () => {
  it('says for each status what deleting does', async () => {
    serve(CASES.map((c) => c.item));
    renderList();
    await screen.findByText(CASES[0].item.orderNo);
    for (const { name, item, text } of CASES) {
      const confirm = await openDelete(item);
      expect(within(confirm).getByText('确定删除该查重记录吗？')).toBeTruthy();
      expect(confirm.querySelector('.ant-popconfirm-description')?.textContent, name).toBe(text);
      fireEvent.click(within(confirm).getByRole('button', { name: '取消' }));
    }
  });

  it('offers no delete for a check being run or about to start, and says why', async () => {
    serve(BLOCKED.map((b) => b.item));
    renderList();
    await screen.findByText(BLOCKED[0].item.orderNo);
    for (const { name, item, reason } of BLOCKED) {
      const button = within(rowOf(item)).getByRole('button', { name: `删除：${reason}` });
      expect(button.hasAttribute('disabled'), name).toBe(true);
      fireEvent.mouseEnter(button.parentElement as HTMLElement);
      expect((await screen.findAllByText(reason)).length).toBeGreaterThan(0);
    }
    expect(screen.queryAllByRole('button', { name: '删除' })).toHaveLength(0);
  });

  it('deletes only after the confirmation', async () => {
    const item = CASES[4].item;
    const calls = serve([item]);
    renderList();
    await screen.findByText(item.orderNo);
    const confirm = await openDelete(item);
    expect(calls.some((c) => c.url.endsWith('/freeCheck/deleteOrder'))).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/freeCheck/deleteOrder'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/freeCheck/deleteOrder'))?.body).toEqual({
      orderId: item.orderId,
    });
  });
});
