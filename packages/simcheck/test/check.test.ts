import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, checkText, type LocalIndex, prepareEngine, type Report } from '../src/index.ts';
import {
  codePointIndexOf,
  LIBRARY,
  makeTempDir,
  OWN_OTHER,
  OWN_SAME_TOPIC,
  SRC_ECONOMY,
  SRC_EDUCATION,
  SRC_MEDICINE,
  SRC_SOIL,
  sliceCodePoints,
} from './fixtures.ts';

let dir: string;
let index: LocalIndex;

beforeAll(async () => {
  dir = makeTempDir('check');
  index = await buildIndex(dir, LIBRARY);
});

afterAll(async () => {
  await index.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Code points of `part` (inside text) covered by matches from `sourceId` (any kind unless given). */
function coverage(report: Report, text: string, part: string, sourceId: string, kinds?: string[]): number {
  const from = codePointIndexOf(text, part);
  expect(from).toBeGreaterThanOrEqual(0);
  const to = from + Array.from(part).length;
  let covered = 0;
  for (const m of report.matches) {
    if (m.sourceId !== sourceId || (kinds && !kinds.includes(m.kind))) continue;
    covered += Math.max(0, Math.min(to, m.end) - Math.max(from, m.start));
  }
  return covered / (to - from);
}

describe('checkText', () => {
  it('reports a verbatim copy once, with offsets into the input and the source', async () => {
    const text = `${OWN_OTHER}\n${SRC_SOIL}\n${OWN_SAME_TOPIC}`;
    const report = await checkText(index, text);
    expect(report.matches).toHaveLength(1);
    const m = report.matches[0]!;
    expect(m).toMatchObject({ sourceId: 'soil', kind: 'verbatim' });
    expect(sliceCodePoints(text, m.start, m.end)).toBe(SRC_SOIL);
    expect(sliceCodePoints(SRC_SOIL, m.sourceStart, m.sourceEnd)).toBe(SRC_SOIL);
  });

  it('reports its progress through the stages, ending at 1 and never going back', async () => {
    const seen: { stage: string; fraction: number }[] = [];
    await checkText(index, `${OWN_OTHER}\n${SRC_SOIL}`, { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toEqual({ stage: 'candidates', fraction: 0 });
    expect(seen.at(-1)).toEqual({ stage: 'report', fraction: 1 });
    expect(seen.map((p) => p.stage)).toEqual(expect.arrayContaining(['exact', 'report']));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.fraction).toBeGreaterThan(seen[i - 1]!.fraction);
  });

  it('gives the same reports after prepareEngine (its warm-up leaves no state behind)', async () => {
    const text = `${OWN_OTHER}\n${SRC_SOIL}\n${SRC_EDUCATION.replace('教学方法单一', '教学手段单一')}`;
    const before = await checkText(index, text);
    await prepareEngine({}, index);
    expect(await checkText(index, text)).toEqual(before);
  });

  it('keeps its warm-up short against a slow index (a large PostgreSQL library): a handful of checks', async () => {
    // Each lookup takes 700 ms on the warm-up's clock (moved by hand, not waited for).
    let clockMs = 0;
    let lookups = 0;
    const slow = Object.create(index) as LocalIndex;
    slow.lookup = async (hashes, options) => {
      lookups++;
      clockMs += 700;
      return index.lookup(hashes, options);
    };
    await prepareEngine({}, slow, () => clockMs);
    // A 2 s warm-up at 700 ms or more a check: a handful of checks, not 48 (each check looks up
    // once or twice).
    expect(lookups).toBeGreaterThanOrEqual(1);
    expect(lookups).toBeLessThanOrEqual(8);
  });

  it('merges a copied passage with a changed word into one match', async () => {
    const edited = SRC_EDUCATION.replace('教学方法单一', '教学手段单一');
    const report = await checkText(index, `${OWN_OTHER}${edited}`);
    const fromEdu = report.matches.filter((m) => m.sourceId === 'edu');
    expect(fromEdu).toHaveLength(1);
    expect(coverage(report, `${OWN_OTHER}${edited}`, edited, 'edu')).toBeGreaterThan(0.97);
  });

  it('catches synonym substitution at word level and types it paraphrase', async () => {
    const rewritten =
      '伴随着网络技术的迅速发展，学术失范行为表现出新的特征，文本抄录与改写变得越发隐蔽。' +
      '以往的基于字符串比对的检验方法很难辨别经过近义词替代和语序调整的剽窃文本。' +
      '本文给出一种结合词嵌入与局部敏感哈希的相似程度计算模型，先对文本开展分词和停用词过滤，接着建立句子层面的语义表示，最终借助候选筛选与精细比较两个步骤实现检测。' +
      '试验结果显示，该模型于公开数据集上的召回率与准确率都好于已有方法。';
    const text = `${OWN_OTHER}\n${rewritten}`;
    const report = await checkText(index, text);
    expect(coverage(report, text, rewritten, 'plag')).toBeGreaterThan(0.9);
    expect(report.matches.some((m) => m.sourceId === 'plag' && m.kind === 'paraphrase')).toBe(true);
    expect(coverage(report, text, OWN_OTHER, 'plag')).toBe(0);
  });

  it('catches reordered sentences as one source', async () => {
    const s = SRC_SOIL.match(/[^。]+。/g)!;
    const reordered = [s[2], s[0], s[3], s[1]].join('');
    const text = `${OWN_SAME_TOPIC}\n${reordered}`;
    const report = await checkText(index, text);
    expect(coverage(report, text, reordered, 'soil')).toBeGreaterThan(0.97);
    expect(report.matches.every((m) => m.sourceId === 'soil')).toBe(true);
  });

  it('sees through traditional characters and full-width letters and digits', async () => {
    const disguised =
      '目的：探討早期康復訓練對腦卒中患者肢體功能恢復的影響。' +
      '方法：選取某醫院收治的腦卒中患者１２０例，隨機分為觀察組和對照組，對照組給予常規護理，觀察組在此基礎上實施早期康復訓練。' +
      '結果：干預８週後，觀察組患者的Ｆｕｇｌ－Ｍｅｙｅｒ運動功能評分和日常生活能力評分均明顯高於對照組，差異具有統計學意義。' +
      '結論：早期康復訓練能夠有效促進腦卒中患者肢體功能的恢復。';
    expect(Array.from(disguised).length).toBe(Array.from(SRC_MEDICINE).length);
    const report = await checkText(index, disguised);
    expect(coverage(report, disguised, disguised, 'med', ['verbatim'])).toBeGreaterThan(0.97);
  });

  it('sees through text broken by spaces and line breaks (PDF artefacts)', async () => {
    const [first, ...rest] = SRC_ECONOMY.match(/[^。]+。/g)!;
    const broken = `${Array.from(first!).join(' ')}\n${rest.map((x) => `${x.slice(0, 9)}\n${x.slice(9)}`).join('')}`;
    const report = await checkText(index, broken);
    expect(coverage(report, broken, broken, 'econ')).toBeGreaterThan(0.95);
  });

  it('does not flag honest writing on the same topic, nor common phrases under 13 characters', async () => {
    // 数字基础设施建设对制造 (11) and 传统产业的组织形态 (9) come from the economy source.
    const text = `${OWN_SAME_TOPIC}我们关注数字基础设施建设对制造企业的影响，也关注传统产业的组织形态如何变化。${OWN_OTHER}`;
    const report = await checkText(index, text);
    expect(report.matches).toEqual([]);
    expect(report.copiedChars).toBe(0);
    expect(report.ratio).toBe(0);
  });

  it('types a quoted and cited passage quoted and leaves it out of 去除引用文献复制比', async () => {
    const quote = '高校思想政治教育是落实立德树人根本任务的关键环节';
    const text = `${OWN_OTHER}正如已有研究所指出的，“${quote}”[1]。`;
    const report = await checkText(index, text);
    expect(report.matches).toHaveLength(1);
    expect(report.matches[0]).toMatchObject({ kind: 'quoted', sourceId: 'edu' });
    expect(report.quotedChars).toBeGreaterThanOrEqual(Array.from(quote).length);
    expect(report.ratioExcludingQuotes).toBe(0);
    expect(report.ratio).toBeGreaterThan(0);
  });

  it('never reports the reference list', async () => {
    const copiedEntry =
      '本文基于2011年至2020年的省级面板数据，运用双重差分模型考察了数字基础设施建设对制造业转型升级的影响';
    const text = `第一章 绪论\n${OWN_OTHER}\n参考文献\n[1] ${copiedEntry}[J]. 经济研究, 2021, 56(4): 1-15.\n`;
    const report = await checkText(index, text);
    expect(report.matches).toEqual([]);
    expect(report.referenceChars).toBeGreaterThan(Array.from(copiedEntry).length);
    expect(report.sections.map((s) => s.title)).toEqual(['第一章 绪论', '参考文献']);
  });

  it('computes the checker figures overall, per chapter and per source', async () => {
    const ch1 = `第一章 绪论\n${OWN_OTHER}\n${SRC_SOIL}\n`;
    const ch2 = `第二章 方法\n${OWN_SAME_TOPIC}\n${SRC_ECONOMY}\n`;
    const text = ch1 + ch2;
    const report = await checkText(index, text);
    const total = Array.from(text).length;
    const soil = Array.from(SRC_SOIL).length;
    const econ = Array.from(SRC_ECONOMY).length;
    expect(report.chars).toBe(total);
    expect(report.copiedChars).toBe(soil + econ);
    expect(report.ratio).toBeCloseTo((soil + econ) / total, 10);
    expect(report.ratioExcludingQuotes).toBeCloseTo(report.ratio, 10);
    expect(report.maxSingleSourceRatio).toBeCloseTo(Math.max(soil, econ) / total, 10);
    expect(report.maxSingleSourceId).toBe(soil > econ ? 'soil' : 'econ');
    expect(report.sources.map((s) => s.sourceId).sort()).toEqual(['econ', 'soil']);
    expect(report.sources.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1, 10);
    const [s1, s2] = report.sections;
    expect(s1).toMatchObject({
      title: '第一章 绪论',
      start: 0,
      end: Array.from(ch1).length,
      copiedChars: soil,
    });
    expect(s1!.ratio).toBeCloseTo(soil / Array.from(ch1).length, 10);
    expect(s2).toMatchObject({ title: '第二章 方法', end: total, copiedChars: econ });
    expect(report.matches.map((m) => m.section)).toEqual([0, 1]);
  });

  it('reports code point offsets when the text has characters outside the BMP', async () => {
    const text = `𠀀𠀁𠀂研究${SRC_SOIL}`;
    const report = await checkText(index, text);
    expect(report.matches).toHaveLength(1);
    expect(report.matches[0]!.start).toBe(5);
    expect(report.chars).toBe(Array.from(text).length);
  });
});
