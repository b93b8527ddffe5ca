import { type Commission, commissionApi } from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiAnswer,
  installDomShims,
  makeUserInfo,
  renderRoutes,
  resetAppState,
  stubFetch,
} from '../../testing/test-utils';
import { sessionStore } from '../auth';
import {
  CommissionList,
  DocDeliveryForm,
  PausedTag,
  SearchReportForm,
  TechSearchForm,
  UnitCalculator,
} from './index';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function logIn() {
  Cookies.set('token', 't-1');
  sessionStore.setState({ userInfo: makeUserInfo(), checked: true });
}

const estimate = (amount: string | null, goodsName: string) => ({
  service: 'doc_delivery' as const,
  pricing: 'per_item' as const,
  goodsId: 'doc_delivery_standard',
  goodsName,
  unitPrice: '5.00',
  unit: '篇',
  quantity: 2,
  amountFen: amount === null ? null : Math.round(Number(amount) * 100),
  amount,
  explain: '2 篇 × ¥5.00/篇',
  turnaroundDays: 5,
  dueDate: '2026-12-02',
});

function submitted(over: Partial<Commission> = {}): Commission {
  return {
    commissionId: '6f1c1a52-7d7e-4a53-9d55-0d3c3f1a2b3c',
    commissionNo: 'WT20261127100000123456',
    service: 'doc_delivery',
    serviceName: '文献下载服务',
    reportName: '文献全文',
    title: '10.1000/abc 等2篇',
    status: 'pending_payment',
    statusText: '待支付',
    pricing: 'per_item',
    quantity: 2,
    unit: '篇',
    amountFen: 1000,
    amount: '10.00',
    quoteNote: null,
    orderId: 'a1b2c3d4-0000-4000-8000-000000000001',
    orderNo: 'KY20261127100000654321',
    canPay: true,
    canCancel: true,
    deadline: null,
    dueDate: null,
    overdue: false,
    delivery: 'file',
    copies: 0,
    timeline: [
      { key: 'submitted', label: '已提交', at: '2026-11-27T02:00:00.000Z', state: 'done', note: null },
      { key: 'payment', label: '待支付', at: null, state: 'current', note: null },
      { key: 'processing', label: '处理中', at: null, state: 'waiting', note: null },
      { key: 'done', label: '已完成', at: null, state: 'waiting', note: null },
    ],
    files: [],
    reports: [],
    createdAt: '2026-11-27T02:00:00.000Z',
    ...over,
  };
}

describe('科技查新 form', () => {
  it('shows the contract’s messages for missing fields and sends nothing', async () => {
    logIn();
    const fetchMock = stubFetch((url) =>
      url.endsWith('/commission/estimate')
        ? apiAnswer(commissionApi.estimate, {
            ...estimate('800.00', '科技查新（国内，常规）'),
            service: 'tech_search',
            pricing: 'fixed',
            quantity: 1,
            unit: '项',
            explain: '科技查新（国内，常规）：¥800.00/项',
          })
        : undefined,
    );
    renderRoutes([{ path: '/', element: <TechSearchForm /> }], '/');
    // The estimate is there before submitting.
    await screen.findByText('¥800.00');
    fireEvent.click(screen.getByRole('button', { name: '提交委托' }));
    for (const message of [
      '请填写项目中文名称',
      '请填写项目英文名称',
      '请选择查新目的',
      '请至少填写一个查新点',
      '请填写技术要点（科学技术要点）',
      '请至少填写3个中文检索词',
      '请选择期望完成日期',
      '请填写联系人姓名',
      '请填写联系电话',
    ])
      expect(await screen.findByText(message)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('技术要点'), { target: { value: '太短的要点' } });
    expect(await screen.findByText('技术要点不少于50个字')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('联系电话'), { target: { value: '12345' } });
    expect(await screen.findByText('请输入正确的手机号码')).toBeTruthy();
    const calls = fetchMock.mock.calls.map(([u]) => String(u));
    expect(calls.some((u) => u.endsWith('/commission/submit'))).toBe(false);
  });
});

describe('文献下载 form', () => {
  it('sends one citation per line, shows the price first and the submitted commission after', async () => {
    logIn();
    let body: Record<string, unknown> | undefined;
    stubFetch((url, init) => {
      if (url.endsWith('/commission/estimate')) {
        const { items } = JSON.parse(String(init.body)) as { items: number };
        return apiAnswer(
          commissionApi.estimate,
          items === 2 ? estimate('10.00', '文献下载服务') : estimate(null, '文献下载服务'),
        );
      }
      if (url.endsWith('/commission/submit')) {
        body = JSON.parse(String(init.body));
        return apiAnswer(commissionApi.submit, submitted());
      }
      if (url.endsWith('/commission/detail'))
        return apiAnswer(commissionApi.detail, { ...submitted(), form: {} });
      return undefined;
    });
    renderRoutes([{ path: '/', element: <DocDeliveryForm /> }], '/');
    fireEvent.change(screen.getByLabelText('文献信息'), {
      target: { value: '10.1000/abc\n\n  张三. 农田墒情研究[J]. 农业工程学报, 2022.  ' },
    });
    await screen.findByText('¥10.00');
    // The turnaround the server records at payment, from the goods.
    expect(screen.getByText('支付后 5 日内完成（自然日），今日支付预计 2026-12-02 完成')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('联系人'), { target: { value: '王老师' } });
    fireEvent.change(screen.getByLabelText('联系电话'), { target: { value: '13912345678' } });
    fireEvent.change(screen.getByLabelText('电子邮箱'), { target: { value: 'wang@' } });
    fireEvent.click(screen.getByRole('button', { name: '提交委托' }));
    expect(await screen.findByText('请确认所申请文献仅用于个人学习研究')).toBeTruthy();
    expect(await screen.findByText('请输入正确的邮箱地址')).toBeTruthy();
    expect(body).toBeUndefined();
    fireEvent.change(screen.getByLabelText('电子邮箱'), { target: { value: 'wang@example.edu.cn' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '提交委托' }));
    await screen.findByText('委托已提交');
    expect(body).toMatchObject({
      service: 'doc_delivery',
      items: ['10.1000/abc', '张三. 农田墒情研究[J]. 农业工程学报, 2022.'],
      personalUse: true,
      contactName: '王老师',
      contactPhone: '13912345678',
      email: 'wang@example.edu.cn',
      fileIds: [],
    });
    expect(body).not.toHaveProperty('deadline');
    expect(screen.getByText('WT20261127100000123456')).toBeTruthy();
    expect(screen.getByRole('button', { name: '去支付' })).toBeTruthy();
  });
});

describe('a paused (下架) service', () => {
  it('shows 暂停受理 instead of the form and the price box, on the page and its card', async () => {
    stubFetch((url) => {
      if (url.endsWith('/commission/services'))
        return apiAnswer(commissionApi.services, [
          { service: 'search_report', available: true },
          { service: 'tech_search', available: true },
          { service: 'doc_delivery', available: false },
          { service: 'tech_evaluation', available: true },
        ]);
      return undefined;
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <DocDeliveryForm />
              <p>
                文献下载服务 <PausedTag service="doc_delivery" />
              </p>
              <p>
                成果评价 <PausedTag service="tech_evaluation" />
              </p>
            </>
          ),
        },
      ],
      '/',
    );
    expect(await screen.findByText('该服务暂停受理')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '提交委托' })).toBeNull();
    expect(screen.queryByText('费用预估')).toBeNull();
    expect(screen.queryByLabelText('文献信息')).toBeNull();
    // the card of the paused service says so; the listed one's does not
    expect(screen.getAllByTestId('commission-paused-tag').map((n) => n.textContent)).toEqual(['暂停受理']);
  });

  it('shows the form of a listed service', async () => {
    stubFetch((url) =>
      url.endsWith('/commission/services')
        ? apiAnswer(commissionApi.services, [{ service: 'doc_delivery', available: true }])
        : undefined,
    );
    renderRoutes([{ path: '/', element: <DocDeliveryForm /> }], '/');
    expect(await screen.findByLabelText('文献信息')).toBeTruthy();
    expect(screen.queryByText('该服务暂停受理')).toBeNull();
  });
});

describe('unit calculator', () => {
  it('converts the spec’s custom units (1 亩 = 666.67 m², 1 斤 = 10 两)', async () => {
    renderRoutes([{ path: '/', element: <UnitCalculator /> }], '/');
    const results = screen.getByRole('list', { name: '换算结果' });
    await waitFor(() => expect(results.textContent).toContain('平方米666.67'));
    fireEvent.mouseDown(screen.getByLabelText('类别'));
    fireEvent.click(await screen.findByTitle('质量'));
    await waitFor(() => expect(results.textContent).toContain('两10'));
    fireEvent.change(screen.getByLabelText('数值'), { target: { value: '3' } });
    await waitFor(() => expect(results.textContent).toContain('克1,500'));
  });
});

describe('检索报告 form', () => {
  it('asks the price for the papers × databases entered so far', async () => {
    const asked: { papers: number; databases: number }[] = [];
    stubFetch((url, init) => {
      if (!url.endsWith('/commission/estimate')) return undefined;
      const input = JSON.parse(String(init.body)) as { papers: number; databases: number };
      asked.push(input);
      const amount = input.papers * input.databases * 15;
      return apiAnswer(commissionApi.estimate, {
        ...estimate(amount ? `${amount}.00` : null, '收录引用检索报告（常规）'),
        service: 'search_report',
        quantity: amount ? input.papers * input.databases : null,
        explain: `${input.papers} 篇 × ${input.databases} 个数据库 × ¥15.00/篇·库`,
      });
    });
    renderRoutes([{ path: '/', element: <SearchReportForm /> }], '/');
    expect(await screen.findByText('填写数量后显示费用')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('题名'), { target: { value: '土壤墒情遥感反演方法研究' } });
    fireEvent.click(screen.getByRole('button', { name: '添加一篇论文' }));
    fireEvent.change(screen.getAllByLabelText('题名')[1]!, {
      target: { value: 'Deep learning for soil moisture' },
    });
    fireEvent.click(screen.getByLabelText('SCI-E（科学引文索引扩展版）'));
    fireEvent.click(screen.getByLabelText('EI（工程索引）'));
    expect(await screen.findByText('¥60.00')).toBeTruthy();
    expect(asked.at(-1)).toMatchObject({ papers: 2, databases: 2, urgency: 'standard' });
    fireEvent.click(screen.getByLabelText('加急'));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ urgency: 'urgent' }));
  });
});

describe('我的委托', () => {
  it('lists the commissions, also one waiting for a quote, and opens the progress', async () => {
    logIn();
    const quoting = submitted({
      commissionId: '7f1c1a52-7d7e-4a53-9d55-0d3c3f1a2b3d',
      commissionNo: 'WT20261127100000999999',
      service: 'tech_evaluation',
      serviceName: '科技成果评价',
      title: '新型节水灌溉装置',
      status: 'quoting',
      statusText: '待报价',
      pricing: 'quote',
      amount: null,
      amountFen: null,
      orderId: null,
      orderNo: null,
      canPay: false,
    });
    const done = submitted({
      status: 'done',
      statusText: '已完成',
      canPay: false,
      canCancel: false,
      timeline: submitted().timeline.map((s) => ({ ...s, state: 'done' as const })),
      reports: [
        {
          fileId: 'f-1',
          kind: 'report',
          fileName: '文献全文.pdf',
          bytes: 2048,
          createdAt: '2026-11-27T03:00:00.000Z',
        },
      ],
    });
    stubFetch((url) => {
      if (url.endsWith('/commission/list'))
        return apiAnswer(commissionApi.list, { list: [quoting, done], total: 2 });
      if (url.endsWith('/commission/detail')) return apiAnswer(commissionApi.detail, { ...done, form: {} });
      return undefined;
    });
    renderRoutes([{ path: '/', element: <CommissionList /> }], '/');
    expect(await screen.findByText('WT20261127100000999999')).toBeTruthy();
    expect(screen.getByText('待报价', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText('¥10.00')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: '详情' })[1]!);
    expect(await screen.findByText('文献全文.pdf')).toBeTruthy();
    expect(screen.getByRole('button', { name: '下载' })).toBeTruthy();
  });
});
