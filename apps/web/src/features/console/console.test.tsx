import { type AiBudget, aiUsageAdminApi, consoleApi, type DataOf, type Staff } from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, installDomShims, renderRoutes, resetAppState, stubFetch } from '../../testing/test-utils';
import { ConsoleApp } from './components/console-app';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function staffOf(role: Staff['role'], roleText: string): Staff {
  return { username: 'zhangcw', role, roleText, expiresAt: '2026-11-27T10:00:00.000Z' };
}

const EMPTY_DASHBOARD: DataOf<typeof consoleApi.dashboard> = {
  days: [],
  queues: { pendingProofs: 2, flaggedPayments: 0, failedRefunds: 1, invoicesToIssue: 0, queuedJobs: 0 },
  failedJobs: [],
};

/** The console at `path` for a staff member of `role`; other calls answer `extra` or an empty success. */
function renderConsole(
  path: string,
  staff: Staff,
  extra?: (url: string, init: RequestInit) => Response | undefined,
) {
  const fetch = stubFetch((url, init) => {
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff);
    if (url.endsWith(consoleApi.dashboard.path)) return apiAnswer(consoleApi.dashboard, EMPTY_DASHBOARD);
    return extra?.(url, init);
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], path);
  return fetch;
}

describe('console shell', () => {
  it('shows each role only its own menu entries', async () => {
    renderConsole('/admin', staffOf('support', '客服'));
    expect(await screen.findByRole('menuitem', { name: '订单' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: '线下付款' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '审计日志' })).toBeNull();
    const card = await screen.findByText('退款未能自动完成', { selector: '.ant-statistic-title' });
    // A queue's card opens its page.
    fireEvent.click(card);
    expect(await screen.findByText(/以下退款已被支付平台拒绝/)).toBeTruthy();
  });

  it('draws the last days as charts', async () => {
    const day = (date: string, orders: number) => ({
      date,
      orders,
      paidOrders: 1,
      revenueFen: 2000,
      checks: 1,
      newUsers: 2,
    });
    stubFetch((url) => {
      if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staffOf('admin', '管理员'));
      if (url.endsWith(consoleApi.dashboard.path))
        return apiAnswer(consoleApi.dashboard, {
          ...EMPTY_DASHBOARD,
          days: [day('2026-11-26', 3), day('2026-11-27', 5)],
        });
      return undefined;
    });
    renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin');
    expect(await screen.findByRole('img', { name: '每日新订单、已支付、检测与新用户折线图' })).toBeTruthy();
    expect(screen.getByRole('img', { name: '每日收入柱状图' })).toBeTruthy();
    expect(screen.getByText('2026-11-27')).toBeTruthy();
  });

  it('says a page is not for this role instead of rendering it', async () => {
    renderConsole('/admin/audit', staffOf('editor', '编辑'));
    expect(await screen.findByText('当前角色无权查看此页面')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '订单' })).toBeNull();
  });

  it('sends a visitor without a session to the login page', async () => {
    stubFetch((url) =>
      url.endsWith(consoleApi.me.path)
        ? new Response(JSON.stringify({ code: 1003, message: '请先登录运营后台', data: null }), {
            headers: { 'content-type': 'application/json' },
          })
        : undefined,
    );
    renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin/orders');
    expect(await screen.findByText('运营后台登录')).toBeTruthy();
  });
});

describe('staff page', () => {
  const account = (username: string, role: Staff['role'], roleText: string, over = {}) => ({
    staffId: `00000000-0000-4000-8000-00000000000${username.length}`,
    username,
    role,
    roleText,
    disabled: false,
    lockedUntil: null,
    createdAt: '2026-11-26T08:00:00.000Z',
    createdBy: 'cli',
    lastLoginAt: null,
    recoveryCodesLeft: 10,
    ...over,
  });

  it('lists the accounts and shows a new account’s password, secret and recovery codes once', async () => {
    const created = {
      username: 'lihua',
      password: 'abcdefghijkmnpqrstuvw',
      totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      otpauthUri: 'otpauth://totp/kyfw:lihua?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=kyfw',
      recoveryCodes: Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`),
    };
    const fetch = renderConsole('/admin/staff', staffOf('admin', '管理员'), (url) => {
      if (url.endsWith(consoleApi.staffList.path))
        return apiAnswer(consoleApi.staffList, [
          account('zhangcw', 'admin', '管理员'),
          account('wangwu', 'support', '客服', { disabled: true, recoveryCodesLeft: 7 }),
        ]);
      if (url.endsWith(consoleApi.staffCreate.path)) return apiAnswer(consoleApi.staffCreate, created);
      return undefined;
    });
    expect(await screen.findByText('zhangcw（我）')).toBeTruthy();
    expect(screen.getByText('已停用')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '新建账号' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'lihua' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('财务'));
    fireEvent.click(within(dialog).getByRole('button', { name: '新建账号' }));

    expect(await screen.findByText('lihua 的登录信息')).toBeTruthy();
    expect(screen.getByText(/只显示这一次/)).toBeTruthy();
    expect(screen.getByText(created.password)).toBeTruthy();
    expect(screen.getByText(created.totpSecret)).toBeTruthy();
    for (const code of created.recoveryCodes) expect(screen.getByText(code)).toBeTruthy();
    const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.staffCreate.path));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ username: 'lihua', role: 'finance' });

    fireEvent.click(screen.getByRole('button', { name: '我已保存，关闭' }));
    await waitFor(() => expect(screen.queryByText(created.password)).toBeNull());
  });
});

describe('refunds that failed', () => {
  const failed = {
    refundNo: 'RF20261127010000123456',
    orderNo: 'KY20261127010000123456',
    amountFen: 2000,
    amount: '20.00',
    reason: '检测失败，自动退款',
    actor: 'system' as const,
    channel: 'wx',
    channelText: '微信支付',
    phone: '13912345678',
    lastError: '平台退款状态 ABNORMAL',
    attempts: 1,
    createdAt: '2026-11-27T01:00:00.000Z',
    updatedAt: '2026-11-27T01:00:00.000Z',
  };
  const answer = (url: string) =>
    url.endsWith(consoleApi.failedRefunds.path) ? apiAnswer(consoleApi.failedRefunds, [failed]) : undefined;

  it('support sees the queue but no actions', async () => {
    renderConsole('/admin/refunds', staffOf('support', '客服'), answer);
    expect(await screen.findByText('平台退款状态 ABNORMAL')).toBeTruthy();
    expect(screen.getByText('自动退款')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '重试' })).toBeNull();
  });

  it('finance marks one done by hand only with how the money went back', async () => {
    const fetch = renderConsole('/admin/refunds', staffOf('finance', '财务'), (url) => {
      if (url.endsWith(consoleApi.refundMarkDone.path))
        return apiAnswer(consoleApi.refundMarkDone, {
          refundId: 'r1',
          refundNo: failed.refundNo,
          amountFen: 2000,
          amount: '20.00',
          reason: failed.reason,
          status: 'succeeded',
          statusText: '退款成功',
          createdAt: failed.createdAt,
          finishedAt: failed.createdAt,
        });
      return answer(url);
    });
    fireEvent.click(await screen.findByRole('button', { name: '标记已人工退款' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '标记已人工退款' }));
    expect(await within(dialog).findByText('请填写退款方式')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('退款方式与凭据（如银行转账流水号）'), {
      target: { value: '银行转账 流水 889' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '标记已人工退款' }));
    await waitFor(() => {
      const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.refundMarkDone.path));
      expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
        refundNo: failed.refundNo,
        note: '银行转账 流水 889',
      });
    });
  });
});

describe('invoices and shipping', () => {
  const invoice = {
    invoiceId: '11111111-1111-4111-8111-111111111111',
    invoiceNo: 'FP2026112701000001',
    titleType: 'personal' as const,
    title: '张三',
    taxpayerId: null,
    email: 'zhangsan@example.com',
    phone: '13912345678',
    amountFen: 2000,
    amount: '20.00',
    status: 'requested' as const,
    createdAt: '2026-11-27T01:00:00.000Z',
    issuedAt: null,
    emailedAt: null,
    reversedAt: null,
    reversalNote: null,
    hasReversalPdf: false,
    orders: [
      {
        orderNo: 'KY20261127010000123456',
        goodsName: '科技查新',
        amountFen: 2000,
        amount: '20.00',
        refundedFen: 0,
        statusText: '已完成',
      },
    ],
  };

  it('finance generates a requested invoice; support only reads', async () => {
    const fetch = renderConsole('/admin/invoices', staffOf('finance', '财务'), (url) => {
      if (url.endsWith(consoleApi.invoiceList.path)) return apiAnswer(consoleApi.invoiceList, [invoice]);
      if (url.endsWith(consoleApi.invoiceGenerate.path))
        return apiAnswer(consoleApi.invoiceGenerate, {
          ...invoice,
          status: 'issued',
          issuedAt: invoice.createdAt,
        });
      return undefined;
    });
    expect(await screen.findByText('zhangsan@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '生成电子发票' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => {
      const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.invoiceGenerate.path));
      expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ invoiceId: invoice.invoiceId });
    });
    cleanup();
    renderConsole('/admin/invoices', staffOf('support', '客服'), (url) =>
      url.endsWith(consoleApi.invoiceList.path) ? apiAnswer(consoleApi.invoiceList, [invoice]) : undefined,
    );
    expect(await screen.findByText('zhangsan@example.com')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '生成电子发票' })).toBeNull();
  });

  it('finance records the 红冲 of a refunded invoice only with the red invoice number', async () => {
    const refunded = {
      ...invoice,
      status: 'issued' as const,
      issuedAt: invoice.createdAt,
      orders: [{ ...invoice.orders[0]!, refundedFen: 2000, statusText: '已退款' }],
    };
    const fetch = renderConsole('/admin/invoices', staffOf('finance', '财务'), (url) => {
      if (url.endsWith(consoleApi.invoiceList.path)) return apiAnswer(consoleApi.invoiceList, [refunded]);
      if (url.endsWith(consoleApi.invoiceReverse.path))
        return apiAnswer(consoleApi.invoiceReverse, {
          ...refunded,
          reversedAt: '2026-11-27T02:00:00.000Z',
          reversalNote: '红字 0123',
        });
      return undefined;
    });
    fireEvent.click(await screen.findByRole('tab', { name: /需红冲/ }));
    fireEvent.click(await screen.findByRole('button', { name: '登记红冲' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '登记红冲' }));
    expect(await within(dialog).findByText('请填写红字发票号码或说明')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('红字发票号码或说明'), { target: { value: '红字 0123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '登记红冲' }));
    await waitFor(() => {
      const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.invoiceReverse.path));
      expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
        invoiceId: invoice.invoiceId,
        note: '红字 0123',
      });
    });
  });

  it('a recorded 红冲 without its red invoice offers the PDF upload; with it, a link to view it', async () => {
    const reversed = {
      ...invoice,
      status: 'issued' as const,
      issuedAt: invoice.createdAt,
      reversedAt: '2026-11-27T02:00:00.000Z',
      reversalNote: '红字 0123',
    };
    const fetch = renderConsole('/admin/invoices', staffOf('finance', '财务'), (url) => {
      if (url.endsWith(consoleApi.invoiceList.path)) return apiAnswer(consoleApi.invoiceList, [reversed]);
      if (url.endsWith(consoleApi.invoiceReversalUpload.path))
        return apiAnswer(consoleApi.invoiceReversalUpload, { ...reversed, hasReversalPdf: true });
      return undefined;
    });
    fireEvent.click(await screen.findByText('已开票'));
    const button = await screen.findByText('上传红字发票');
    const input = button.closest('.ant-upload')!.querySelector('input[type=file]') as HTMLInputElement;
    const pdf = new File(['%PDF-1.7'], 'red.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [pdf] } });
    await waitFor(() => {
      const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.invoiceReversalUpload.path));
      const form = sent?.[1]?.body as FormData;
      expect(form.get('invoiceId')).toBe(invoice.invoiceId);
      expect((form.get('file') as File).name).toBe('red.pdf');
    });
    cleanup();
    renderConsole('/admin/invoices', staffOf('support', '客服'), (url) =>
      url.endsWith(consoleApi.invoiceList.path)
        ? apiAnswer(consoleApi.invoiceList, [{ ...reversed, hasReversalPdf: true }])
        : undefined,
    );
    fireEvent.click(await screen.findByText('已开票'));
    const link = (await screen.findByText('查看红字发票')).closest('a')!;
    expect(link.getAttribute('href')).toContain(
      `${consoleApi.invoiceReversalFile.path}?invoiceId=${invoice.invoiceId}`,
    );
    expect(screen.queryByText('上传红字发票')).toBeNull();
  });

  it('fulfilment ships an order only with a carrier and tracking number', async () => {
    const delivery = {
      orderNo: 'KY20261127010000654321',
      goodsName: '检测报告纸质版',
      orderStatusText: '已支付',
      paidAt: '2026-11-27T01:00:00.000Z',
      recipientName: '李四',
      phone: '13800138000',
      province: '北京市',
      city: '北京市',
      district: '海淀区',
      detail: '学院路1号',
      carrier: null,
      trackingNo: null,
      shippedAt: null,
      statusText: '待发货',
    };
    const fetch = renderConsole('/admin/shipping', staffOf('fulfilment', '履约'), (url) => {
      if (url.endsWith(consoleApi.deliveryList.path)) return apiAnswer(consoleApi.deliveryList, [delivery]);
      if (url.endsWith(consoleApi.deliveryShip.path))
        return apiAnswer(consoleApi.deliveryShip, {
          ...delivery,
          carrier: '顺丰速运',
          trackingNo: 'SF123456789',
        });
      return undefined;
    });
    expect(await screen.findByText('北京市北京市海淀区学院路1号')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '登记发货' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '登记发货' }));
    expect(await within(dialog).findByText('请填写快递公司')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('快递公司'), { target: { value: '顺丰速运' } });
    fireEvent.change(within(dialog).getByLabelText('快递单号'), { target: { value: 'SF123456789' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '登记发货' }));
    await waitFor(() => {
      const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.deliveryShip.path));
      expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
        orderNo: delivery.orderNo,
        carrier: '顺丰速运',
        trackingNo: 'SF123456789',
      });
    });
  });
});

describe('users, jobs and AI usage', () => {
  it('support searches a user by phone and sees their details without secrets', async () => {
    const fetch = renderConsole('/admin/users', staffOf('support', '客服'), (url) =>
      url.endsWith(consoleApi.userSearch.path)
        ? apiAnswer(consoleApi.userSearch, [
            {
              userId: 'u-1',
              phone: '13912345678',
              realName: '王五',
              unitName: '某大学',
              status: 'active',
              statusText: '正常',
              wechatBound: true,
              createdAt: '2026-11-01T08:00:00.000Z',
              lastLoginAt: '2026-11-26T08:00:00.000Z',
              orders: 3,
              paidFen: 12345,
            },
          ])
        : undefined,
    );
    fireEvent.change(await screen.findByLabelText('手机号'), { target: { value: '1391' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    expect(await screen.findByText('王五')).toBeTruthy();
    expect(screen.getByText('123.45')).toBeTruthy();
    expect(screen.getByText('已绑定')).toBeTruthy();
    const sent = fetch.mock.calls.find(([u]) => String(u).endsWith(consoleApi.userSearch.path));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ phone: '1391' });
  });

  it('shows LLM tokens and cost per task', async () => {
    const row = (key: string, calls: number, cost: string) => ({
      key,
      calls,
      promptTokens: 1200,
      completionTokens: 600,
      costMicroYuan: Number(cost) * 1_000_000,
      cost,
    });
    renderConsole('/admin/llm', staffOf('finance', '财务'), (url) =>
      url.endsWith(consoleApi.llmUsage.path)
        ? apiAnswer(consoleApi.llmUsage, {
            byDay: [row('2026-11-27', 2, '1.8000')],
            byTask: [row('reduction.rewrite', 2, '1.8000')],
            byOrder: [],
          })
        : undefined,
    );
    expect(await screen.findByText('2026-11-27')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '按任务' }));
    expect(await screen.findByText('reduction.rewrite')).toBeTruthy();
  });

  it('shows today against the daily budget, the top accounts, tasks, 7 days and the limits', async () => {
    const spend = (tokens: number, cost: string) => ({
      calls: tokens / 1000,
      tokens,
      costMicroYuan: Number(cost) * 1_000_000,
      cost,
    });
    const budget: AiBudget = {
      day: '2026-12-02',
      today: spend(850_000, '4.2500'),
      budgetTokens: 1_000_000,
      usedRatio: 0.85,
      freeCallsStopped: false,
      freeCallsToday: 37,
      accountsAtTokenLimit: 2,
      topAccounts: [
        { userId: 'u-1', phone: '13912345678', ...spend(400_000, '2.0000'), freeTokens: 120_000 },
      ],
      byTask: [{ task: 'writing.section', ...spend(600_000, '3.0000') }],
      lastDays: ['11-26', '11-27', '11-28', '11-29', '11-30', '12-01', '12-02'].map((d, i) => ({
        day: `2026-${d}`,
        ...spend(i * 1000, '0.0100'),
      })),
      limits: {
        accountPerMinute: 10,
        accountPerDay: 60,
        accountTokensPerDay: 300_000,
        addressPerMinute: 300,
        addressPerDay: 6000,
        orderMaxCalls: 2000,
        orderMaxTokens: 10_000_000,
      },
    };
    renderConsole('/admin/llm', staffOf('admin', '管理员'), (url) =>
      url.endsWith(aiUsageAdminApi.budget.path)
        ? apiAnswer(aiUsageAdminApi.budget, budget)
        : url.endsWith(consoleApi.llmUsage.path)
          ? apiAnswer(consoleApi.llmUsage, { byDay: [], byTask: [], byOrder: [] })
          : undefined,
    );
    expect(await screen.findByText('今日用量（2026-12-02，北京时间）')).toBeTruthy();
    expect(screen.getByText('850,000')).toBeTruthy();
    expect(screen.getByText('/ 预算 1,000,000')).toBeTruthy();
    expect(screen.getByText('接近每日预算')).toBeTruthy();
    expect(
      screen.getByRole('progressbar', { name: '今日 tokens 占每日预算' }).getAttribute('aria-valuenow'),
    ).toBe('85');
    expect(screen.getByText('13912345678')).toBeTruthy();
    expect(screen.getByText('writing.section')).toBeTruthy();
    expect(screen.getByText('2026-11-26')).toBeTruthy();
    expect(screen.getByText('每个地址（校园网、宿舍共用出口）：每分钟 300 次，每天 6,000 次')).toBeTruthy();
    // The per-account daily token budget of free calls: the limit, who reached it, each top account's share.
    expect(
      screen.getByText('每个账号免费 AI 调用每天的 tokens：最多 300,000（含未通过检查的回答）'),
    ).toBeTruthy();
    expect(screen.getByText('今日用完免费额度的账号')).toBeTruthy();
    expect(screen.getByText('120,000 / 300,000')).toBeTruthy();
  });

  it('says free AI calls are stopped once the budget is reached', async () => {
    renderConsole('/admin/llm', staffOf('finance', '财务'), (url) =>
      url.endsWith(aiUsageAdminApi.budget.path)
        ? apiAnswer(aiUsageAdminApi.budget, {
            day: '2026-12-02',
            today: { calls: 900, tokens: 1_200_000, costMicroYuan: 6_000_000, cost: '6.0000' },
            budgetTokens: 1_000_000,
            usedRatio: 1.2,
            freeCallsStopped: true,
            freeCallsToday: 0,
            accountsAtTokenLimit: 0,
            topAccounts: [],
            byTask: [],
            lastDays: [],
            limits: {
              accountPerMinute: 0,
              accountPerDay: 0,
              accountTokensPerDay: 0,
              addressPerMinute: 0,
              addressPerDay: 0,
              orderMaxCalls: 0,
              orderMaxTokens: 0,
            },
          })
        : undefined,
    );
    expect(await screen.findByText('已达每日预算：免费 AI 生成已暂停，已付费订单照常进行')).toBeTruthy();
    expect(screen.getByText('每个付费订单：调用次数不限、tokens 不限')).toBeTruthy();
  });
});
