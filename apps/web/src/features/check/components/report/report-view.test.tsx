import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../../../../app/provider';
import { installDomShims } from '../../../../testing/test-utils';
import type { ReportModel } from '../../types';
import { ReportView } from './report-view';

vi.setConfig({ testTimeout: 20_000 });

const text =
  '城市交通拥堵治理研究\n\n第1章 绪论\n城市交通治理是现代城市管理的重要内容。公共交通服务质量评价是城市交通治理的重要基础工作。本文提出新的框架。\n\n第2章 研究设计\n正如李明所言，“土壤微生物群落结构的多样性对氮素循环具有重要影响”[1]。';
const copied = '公共交通服务质量评价是城市交通治理的重要基础工作。';
const quoted = '土壤微生物群落结构的多样性对氮素循环具有重要影响';
const cs = text.indexOf(copied);
const qs = text.indexOf(quoted);

const model: ReportModel = {
  version: 1,
  orderId: 'o1',
  orderNo: 'KY1',
  reportNo: 'BG20261122UDV9Y7AZ',
  verificationCode: 'YZXMFAR4',
  verifyUrl: 'http://x/check/verify?reportNo=BG20261122UDV9Y7AZ&code=YZXMFAR4',
  title: '城市交通拥堵治理研究',
  author: '张三',
  goodsName: '本科毕业论文查重',
  fileName: 'paper.txt',
  checkedAt: '2026-11-22T01:48:31.042Z',
  figures: {
    ratio: 0.3545,
    ratioExcludingQuotes: 0.2709,
    maxSingleSourceRatio: 0.2709,
    maxSingleSourceTitle: '城市公共交通服务质量评价方法',
    copiedChars: 106,
    totalChars: 299,
    verbatimChars: 24,
    paraphraseChars: 0,
    quotedChars: 25,
    referenceChars: 0,
    sourceCount: 2,
  },
  sections: [
    {
      index: 0,
      title: '城市交通拥堵治理研究',
      kind: 'front',
      start: 0,
      end: 12,
      chars: 10,
      copiedChars: 0,
      quotedChars: 0,
      ratio: 0,
      ratioExcludingQuotes: 0,
      matchCount: 0,
    },
    {
      index: 1,
      title: '第1章 绪论',
      kind: 'body',
      start: 12,
      end: text.indexOf('第2章'),
      chars: 60,
      copiedChars: 24,
      quotedChars: 0,
      ratio: 0.4,
      ratioExcludingQuotes: 0.4,
      matchCount: 1,
    },
    {
      index: 2,
      title: '第2章 研究设计',
      kind: 'body',
      start: text.indexOf('第2章'),
      end: text.length,
      chars: 50,
      copiedChars: 25,
      quotedChars: 25,
      ratio: 0.5,
      ratioExcludingQuotes: 0,
      matchCount: 1,
    },
  ],
  sources: [
    {
      no: 1,
      id: 'lib:doc2',
      title: '城市公共交通服务质量评价方法',
      authors: ['赵强'],
      year: 2019,
      source: '交通运输研究',
      copiedChars: 24,
      ratio: 0.2709,
      share: 0.76,
      matchCount: 1,
    },
    {
      no: 2,
      id: 'lib:doc1',
      title: '土壤微生物群落结构与氮素循环研究',
      authors: ['李明', '王芳'],
      year: 2021,
      source: '农业科学学报',
      copiedChars: 25,
      ratio: 0.08,
      share: 0.24,
      matchCount: 1,
    },
  ],
  matches: [
    {
      index: 0,
      start: cs,
      end: cs + copied.length,
      kind: 'verbatim',
      chars: copied.length,
      section: 1,
      sourceNo: 1,
      sourcePassage: { before: '', text: copied, after: '传统的评价方法主要依赖乘客满意度问卷调查' },
    },
    {
      index: 1,
      start: qs,
      end: qs + quoted.length,
      kind: 'quoted',
      chars: quoted.length,
      section: 2,
      sourceNo: 2,
      sourcePassage: { before: '', text: `${quoted}。`, after: '本研究通过田间试验' },
    },
  ],
  text,
  notes: [
    '本报告为程序自动比对的结果，仅供参考，不作为学术不端的最终认定依据；最终结论以学校或期刊的审查为准。',
  ],
};

function renderReport(report: ReportModel) {
  const router = createMemoryRouter([{ path: '*', element: <ReportView report={report} /> }], {
    initialEntries: ['/check?orderId=o1'],
  });
  return render(
    <AppProvider queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

beforeAll(() => {
  installDomShims();
  Element.prototype.scrollIntoView = () => {};
});
afterEach(cleanup);

describe('ReportView', () => {
  it('shows the figures, the report number, the chapters, the sources and the program-output notice', () => {
    renderReport(model);
    expect(screen.getByTestId('report-ratio').textContent).toContain('35.5%');
    expect(screen.getByTestId('report-no').textContent).toBe('BG20261122UDV9Y7AZ');
    for (const label of ['去除引用文献复制比', '单篇最大文字复制比', '重复字数', '总字数']) {
      expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    }
    expect(screen.getAllByText('27.1%', { selector: '.rt-figure__value' })).toHaveLength(2);
    expect(screen.getByText('299')).toBeTruthy();
    expect(screen.getByText(/程序自动比对的结果/)).toBeTruthy();
    const table = screen.getByRole('table');
    expect(within(table).getByText('第1章 绪论')).toBeTruthy();
    expect(within(table).getAllByText('40.0%')).toHaveLength(2);
    const sources = screen.getAllByTestId('report-source');
    expect(sources).toHaveLength(2);
    expect(sources[0]!.textContent).toContain('城市公共交通服务质量评价方法');
    expect(sources[0]!.textContent).toContain('76.0%');
    expect(screen.getByRole('link', { name: /核验报告真伪/ }).getAttribute('href')).toBe(
      '/check/verify?reportNo=BG20261122UDV9Y7AZ&code=YZXMFAR4',
    );
  });

  it('marks the copied passage red and the quotation green, and shows the source passage of a clicked mark', () => {
    const { container } = renderReport(model);
    const red = container.querySelector('.rt-mark--verbatim');
    const green = container.querySelector('.rt-mark--quoted');
    expect(red?.textContent).toBe(copied);
    expect(green?.textContent).toBe(quoted);
    expect(screen.queryByTestId('match-panel')).toBeNull();
    fireEvent.click(red!);
    const panel = screen.getByTestId('match-panel');
    expect(panel.textContent).toContain('文字复制');
    expect(panel.textContent).toContain('[1] 城市公共交通服务质量评价方法');
    expect(screen.getByTestId('source-passage').textContent).toContain(
      '传统的评价方法主要依赖乘客满意度问卷调查',
    );
    expect(red!.classList.contains('is-active')).toBe(true);
    fireEvent.click(within(panel).getByRole('button', { name: /下一处/ }));
    expect(screen.getByTestId('match-panel').textContent).toContain('土壤微生物群落结构与氮素循环研究');
    expect(container.querySelector('.rt-mark--quoted')!.classList.contains('is-active')).toBe(true);
  });

  it('opens the first passage of a source from the source list', () => {
    renderReport(model);
    fireEvent.click(
      within(screen.getAllByTestId('report-source')[1]!).getByRole('button', { name: /查看片段/ }),
    );
    expect(screen.getByTestId('match-panel').textContent).toContain('引用（已标注）');
  });
});
