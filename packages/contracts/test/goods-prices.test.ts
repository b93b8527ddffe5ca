import { describe, expect, it } from 'vitest';
import { estimateBody, goodsSaveBody, PRICE_IN_TEXT, withoutPrices } from '../src/index.ts';

// Prices come only from the goods' fields (issue 23): a description may not repeat one, and what
// was written before is shown without it. The estimate counts within the form's own limits.

describe('prices in goods descriptions', () => {
  it('finds a price written as 元, 块钱 or ¥, and not other numbers', () => {
    for (const text of ['每篇每库 15 元', '¥18', '￥ 2.5/千字', '每项800元', '只要 5 块钱'])
      expect(PRICE_IN_TEXT.test(text), text).toBe(true);
    for (const text of ['2 个工作日内出具盖章报告', '每篇全文含 2 次免费修改', '比对 1.2 亿篇文献'])
      expect(PRICE_IN_TEXT.test(text), text).toBe(false);
  });

  it('takes the price clause out of the descriptions the site used to seed', () => {
    expect(withoutPrices('按论文篇数 × 检索数据库个数计费，每篇每库 15 元，出具盖章检索报告。')).toBe(
      '按论文篇数 × 检索数据库个数计费，出具盖章检索报告。',
    );
    expect(withoutPrices('适用于专科、本科毕业论文，按字符数计费，每千字 2 元。')).toBe(
      '适用于专科、本科毕业论文，按字符数计费。',
    );
    expect(withoutPrices('国内查新，每项 800 元，出具查新报告。')).toBe('国内查新，出具查新报告。');
    expect(
      withoutPrices('已购全文的论文不限次数修改各节正文（每篇全文含 2 次免费修改），每篇 19.9 元。'),
    ).toBe('已购全文的论文不限次数修改各节正文（每篇全文含 2 次免费修改）。');
    expect(withoutPrices('加急服务 ¥25/篇，两天出报告')).toBe('加急服务，两天出报告');
    expect(withoutPrices('三个工作日内出具查新报告。')).toBe('三个工作日内出具查新报告。');
  });

  it('refuses a description with a price in the console (1001 with the reason)', () => {
    const body = {
      goodsId: 'x_goods',
      serviceType: 'tech_search',
      name: '查新',
      unitPrice: '18',
      unitSize: 1,
      unit: '份',
      minQuantity: 1,
      maxQuantity: 1,
    };
    const refused = goodsSaveBody.safeParse({ ...body, description: '每篇每库 15 元，出具报告' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toContain('商品说明中不要写价格');
    expect(goodsSaveBody.safeParse({ ...body, description: '出具报告' }).success).toBe(true);
  });
});

describe('the estimate counts what the form accepts', () => {
  it('refuses 101 papers, 21 documents and more databases than there are, with the form’s words', () => {
    const issue = (input: object) => estimateBody.safeParse(input).error?.issues[0]?.message;
    expect(issue({ service: 'search_report', papers: 101, databases: 1 })).toBe('一次最多委托 100 篇论文');
    expect(issue({ service: 'doc_delivery', items: 21 })).toBe('一次最多申请 20 篇文献');
    expect(issue({ service: 'search_report', papers: 1, databases: 99 })).toMatch(
      /^最多选择 \d+ 个检索数据库$/,
    );
    expect(estimateBody.safeParse({ service: 'search_report', papers: 100, databases: 2 }).success).toBe(
      true,
    );
  });
});
