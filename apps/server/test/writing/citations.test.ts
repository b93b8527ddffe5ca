import { describe, expect, it } from 'vitest';
import { formatGbt7714, parseReferences, type Source } from '../../src/modules/writing/references.ts';
import {
  citationFindings,
  cleanCitations,
  totalRemoved,
} from '../../src/modules/writing/writing.citations.ts';

const sources: Source[] = [
  {
    n: 1,
    title: '城市社区养老服务供给研究',
    authors: ['王明', '李华'],
    year: 2021,
    source: '人口研究',
    type: 'J',
    origin: 'library',
  },
  {
    n: 2,
    title: 'Community care for older adults in cities',
    authors: ['Smith J', 'Lee K'],
    year: 2020,
    source: 'Ageing and Society',
    type: 'J',
    origin: 'library',
  },
];
const ctx = { numbers: new Set([1, 2]), sources };
const clean = (text: string, lastAttempt = false) =>
  cleanCitations(text, { sources, language: 'zh', lastAttempt });

describe('citations by construction: only [n] to the list survives', () => {
  it('turns an author-year naming a listed source into its [n], and removes invented ones', () => {
    const out = clean(
      '王明等（2021）认为供给不足。张三和李四（2021）指出需求上升。赵六等（2020）发现差异。Smith et al. (2020) 也有讨论，Brown and Green (2019) 则相反。另有研究（刘洋，2019；王明，2021）。',
    );
    expect(out.regenerate).toBeNull();
    expect(out.text).toBe(
      '王明等[1]认为供给不足。有研究指出需求上升。有研究发现差异。Smith et al. [2] 也有讨论，有研究则相反。另有研究[1]。',
    );
    expect(out.removed.authorYear).toBe(4);
    expect(citationFindings(out.text, ctx)).toEqual([]);
  });

  it('removes DOIs, URLs, unlisted journals and marks to no entry; keeps listed journals and laws', () => {
    const out = clean(
      '发表于《管理世界》的研究表明[1]，见 https://example.com/paper?id=3 与 doi: 10.1016/j.jss.2020.01.002 。《经济研究》2020年第3期指出[7]，《人口研究》的数据[1]，依据《中华人民共和国老年人权益保障法》。',
    );
    expect(out.text).toBe(
      '研究表明[1]，见与。指出，《人口研究》的数据[1]，依据《中华人民共和国老年人权益保障法》。',
    );
    expect(out.removed).toMatchObject({ url: 1, doi: 1, journal: 2, mark: 1 });
    expect(citationFindings(out.text, ctx)).toEqual([]);
  });

  it('asks for a new text when the model wrote its own reference list; the last attempt drops it and every mark', () => {
    const text =
      '已有研究[1]表明问题突出[2]。\n参考文献\n[1] 张三. 虚构的论文[J]. 虚构学报, 2020.\n[2] 李四. 另一篇[J]. 某刊, 2019.';
    expect(clean(text).regenerate).toBe('referenceBlock');
    const last = clean(text, true);
    expect(last.regenerate).toBeNull();
    expect(last.text).toBe('已有研究表明问题突出。');
    expect(totalRemoved(last.removed)).toBeGreaterThan(0);
    expect(citationFindings(last.text, ctx)).toEqual([]);
    // The audit finds each kind in a text nobody cleaned.
    const kinds = citationFindings(
      `${text}\n张三等（2020）、Smith et al. (2019)、doi:10.1000/xyz、www.example.org、《虚构学报》、[9]`,
      ctx,
    ).map((f) => f.kind);
    expect(new Set(kinds)).toEqual(
      new Set(['referenceBlock', 'authorYear', 'doi', 'url', 'journal', 'mark']),
    );
  });

  it('leaves years that are not attributions alone', () => {
    const text = 'GDP（2021）增长较快，“十四五”规划（2021—2025年）提出目标，2020年调查显示。';
    expect(clean(text).text).toBe(text);
    expect(citationFindings(text, ctx)).toEqual([]);
  });
});

describe('references: what the record has, and what it lacks said plainly', () => {
  it('reads 年(期) without a volume and prints it once', () => {
    const [ref] = parseReferences('[3] 周杰. 金融科技与银行风险[J]. 金融研究, 2018(11): 47-67.');
    expect(ref!.fields).toMatchObject({
      source: '金融研究',
      year: 2018,
      volume: null,
      issue: '11',
      pages: '47-67',
    });
    expect(ref!.formatted).toBe('周杰. 金融科技与银行风险[J]. 金融研究, 2018(11): 47-67.');
  });

  it('says which fields a library record lacks', () => {
    expect(
      formatGbt7714({ title: '城市社区养老服务供给研究', authors: [], year: null, source: null, type: 'J' }),
    ).toBe('城市社区养老服务供给研究[J].［记录未载明作者、刊名、年份，请查证原文后补全］');
    expect(
      formatGbt7714({ title: '甲', authors: ['王明'], year: 2021, source: '《人口研究》', type: 'J' }),
    ).toBe('王明. 甲[J]. 人口研究, 2021.');
  });
});
