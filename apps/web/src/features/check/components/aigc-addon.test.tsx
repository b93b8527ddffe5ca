import { checkApi } from '@kyfw/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../../../testing/test-utils';
import type { CheckGoods, ReportModel } from '../types';
import { CheckWorkspace } from './check-workspace';
import { ReportView } from './report/report-view';

setUpPageTests();

// 同时检测AIGC (decision 0022): the option on /check with the AIGC goods' price from the server,
// and the AIGC section of the similarity report (index or 未见明显AI生成特征, shaded paragraphs with
// the reasons on hover, every figure a reference value; or why it failed and what was given back).

function goods(over: Partial<CheckGoods> & Pick<CheckGoods, 'goodsId' | 'name'>): CheckGoods {
  return {
    serviceType: 'check',
    description: '',
    unitPriceFen: 200,
    unitPrice: '2.00',
    unitSize: 1000,
    unit: '千字',
    minQuantity: 1,
    maxQuantity: 300000,
    freeRule: null,
    pricePerThousand: '2.00',
    freeMaxChars: null,
    freeAvailable: false,
    freeStatus: null,
    library: null,
    uploadMaxBytes: 30 * 1024 * 1024,
    kind: 'similarity',
    available: true,
    unavailableReason: null,
    aigcAddon: null,
    ...over,
  } as CheckGoods;
}

const addon = {
  goodsId: 'aigc_detection_standard',
  name: 'AIGC检测',
  pricePerThousand: '1.20',
  freeAvailable: false,
  freeMaxChars: 10000,
};

describe('the 同时检测AIGC option on /check', () => {
  it('shows the AIGC goods price for a similarity goods, and not for AIGC detection itself', async () => {
    const list = [
      goods({ goodsId: 'check_undergrad', name: '本科毕业论文查重', aigcAddon: addon }),
      goods({ goodsId: 'aigc_detection_standard', name: 'AIGC检测', kind: 'aigc', pricePerThousand: '1.20' }),
    ];
    stubFetch((url) =>
      url.endsWith('/freeCheck/goodsList') ? apiAnswer(checkApi.goodsList, list) : undefined,
    );
    renderRoutes([{ path: '/check', element: <CheckWorkspace /> }], '/check');

    const option = await screen.findByRole('checkbox', { name: '同时检测AIGC（+¥1.20/千字）' });
    expect((option as HTMLInputElement).checked).toBe(false);
    fireEvent.click(option);
    expect((option as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('aigc-addon').textContent).toContain('查重报告中增加“AIGC检测”部分');

    fireEvent.click(screen.getByRole('radio', { name: /AIGC检测/ }));
    await waitFor(() => expect(screen.queryByTestId('aigc-addon')).toBeNull());
  });

  it('says what the add-on does to a held free check', async () => {
    const list = [
      goods({
        goodsId: 'check_undergrad',
        name: '本科毕业论文查重',
        freeMaxChars: 10000,
        freeAvailable: true,
        freeStatus: 'available',
        aigcAddon: addon,
      }),
    ];
    stubFetch((url) =>
      url.endsWith('/freeCheck/goodsList') ? apiAnswer(checkApi.goodsList, list) : undefined,
    );
    renderRoutes([{ path: '/check', element: <CheckWorkspace /> }], '/check');
    const box = await screen.findByTestId('aigc-addon');
    expect(box.textContent).toContain('免费查重次数保留未用');
  });
});

const text =
  '人工智能在高校教学中的应用研究\n综上所述，随着人工智能技术的不断发展，其在教育领域的应用日益广泛。\n我上周在图书馆借到这本书，第三章讲的例子和我们实验室的情况很像。';
const p1 = text.indexOf('综上所述');
const p1End = text.indexOf('\n', p1);
const p2 = text.indexOf('我上周');

function report(aigc: ReportModel['aigc']): ReportModel {
  return {
    version: 1,
    orderId: 'o1',
    orderNo: 'KY1',
    reportNo: 'BG20261127ABCDEFGH',
    verificationCode: 'YZXMFAR4',
    verifyUrl: 'http://x/check/verify?reportNo=BG20261127ABCDEFGH&code=YZXMFAR4',
    title: '人工智能在高校教学中的应用研究',
    author: '张三',
    goodsName: '本科毕业论文查重＋AIGC检测',
    fileName: 'paper.txt',
    checkedAt: '2026-11-27T01:48:31.042Z',
    figures: {
      ratio: 0,
      ratioExcludingQuotes: 0,
      maxSingleSourceRatio: 0,
      maxSingleSourceTitle: null,
      copiedChars: 0,
      totalChars: 80,
      verbatimChars: 0,
      paraphraseChars: 0,
      quotedChars: 0,
      referenceChars: 0,
      sourceCount: 0,
    },
    sections: [],
    sources: [],
    matches: [],
    text,
    notes: ['本报告为程序自动比对的结果，仅供参考。'],
    ...(aigc ? { aigc } : {}),
  };
}

const done: NonNullable<ReportModel['aigc']> = {
  status: 'done',
  goodsName: 'AIGC检测',
  modelVersion: 'aigc-1',
  figures: {
    score: 72.4,
    reliable: true,
    threshold: 50,
    totalChars: 80,
    scoredChars: 70,
    flaggedChars: 30,
    flaggedShare: 30 / 70,
    paragraphCount: 2,
    flaggedCount: 1,
  },
  verdict: '疑似含有AI生成内容',
  reasons: ['模板化连接词密集'],
  paragraphs: [
    { start: p1, end: p1End, score: 88.1, flagged: true, reasons: ['模板化连接词密集', '句式高度均匀'] },
    { start: p2, end: text.length, score: 12, flagged: false, reasons: [] },
  ],
  notes: ['AIGC指数为统计模型的估计，仅供参考，不能作为认定文本由AI生成的证据。'],
};

describe('the AIGC section of the similarity report', () => {
  it('shows the index as a reference value and shades the flagged paragraph, its reasons on hover', async () => {
    renderRoutes([{ path: '*', element: <ReportView report={report(done)} /> }], '/check');
    const section = await screen.findByTestId('aigc-section');
    expect(within(section).getByText('AIGC检测（参考值）')).toBeTruthy();
    expect(within(section).getByText('AIGC指数（参考值）')).toBeTruthy();
    expect(within(section).getByTestId('aigc-index').textContent).toBe('72.4');
    expect(section.textContent).toContain('仅供参考');
    expect(section.textContent).toContain('疑似段落（参考）');
    expect(screen.getByTestId('aigc-section-link').textContent).toBe('AIGC检测（参考值）：72.4');

    const flagged = section.querySelector('[data-flagged="true"]') as HTMLElement;
    expect(flagged.textContent).toBe(text.slice(p1, p1End));
    expect(flagged.style.background).toMatch(/rgba\(207, 19, 34/);
    const plain = section.querySelector('[data-flagged="false"]') as HTMLElement;
    expect(plain.style.background).toBe('');
    fireEvent.mouseEnter(flagged);
    expect(await screen.findByText('AIGC指数 88.1（参考值）')).toBeTruthy();
    expect(screen.getByText('句式高度均匀')).toBeTruthy();
  });

  it('says 未见明显AI生成特征 instead of a small figure below the reliable range', async () => {
    const low = {
      ...done,
      figures: {
        ...done.figures,
        score: 21.3,
        reliable: false,
        flaggedCount: 0,
        flaggedChars: 0,
        flaggedShare: 0,
      },
      verdict: '未见明显AI生成特征',
      reasons: [],
      paragraphs: done.paragraphs.map((p) => ({ ...p, flagged: false, reasons: [] })),
    };
    renderRoutes([{ path: '*', element: <ReportView report={report(low)} /> }], '/check');
    const section = await screen.findByTestId('aigc-section');
    expect(within(section).getByTestId('aigc-index').textContent).toBe('未见明显AI生成特征');
    expect(section.textContent).not.toContain('21.3');
  });

  it('shows the index (参考) with 部分段落疑似 when a paragraph is flagged below the reliable range (issue 23)', async () => {
    const partial = {
      ...done,
      figures: { ...done.figures, score: 31.0, reliable: false },
      verdict: '部分段落疑似含有AI生成内容',
    };
    renderRoutes([{ path: '*', element: <ReportView report={report(partial)} /> }], '/check');
    const section = await screen.findByTestId('aigc-section');
    expect(within(section).getByTestId('aigc-index').textContent).toBe('31.0');
    expect(section.textContent).toContain('部分段落疑似含有AI生成内容');
    expect(section.textContent).not.toContain('未见明显AI生成特征');
    expect(within(section).getByText('AIGC指数（参考值）')).toBeTruthy();
    expect(screen.getByTestId('aigc-section-link').textContent).toBe('AIGC检测（参考值）：31.0');
  });

  it('says the detection failed and what was given back; no section without the add-on', async () => {
    const message = 'AIGC检测未能完成，已为您自动退还该部分费用 ¥1.00（原路退回）；查重报告不受影响。';
    const first = renderRoutes(
      [
        {
          path: '*',
          element: <ReportView report={report({ status: 'failed', goodsName: 'AIGC检测', message })} />,
        },
      ],
      '/check',
    );
    const section = await screen.findByTestId('aigc-section');
    expect(section.textContent).toContain(message);
    first.unmount();
    renderRoutes([{ path: '*', element: <ReportView report={report(undefined)} /> }], '/check');
    await screen.findByTestId('check-report');
    expect(screen.queryByTestId('aigc-section')).toBeNull();
  });
});
