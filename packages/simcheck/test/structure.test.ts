import { describe, expect, it } from 'vitest';
import { analyzeStructure } from '../src/core/structure.ts';

const THESIS = [
  '基于多源数据的城市热岛效应研究',
  '摘要',
  '城市热岛效应是城市化进程中的典型环境问题。',
  'Abstract',
  'Urban heat island is a typical environmental problem.',
  '第一章 绪论',
  '1.1 研究背景',
  '城市化进程不断加快。',
  '1.1.1 国外研究现状',
  '国外学者开展了大量研究。',
  '第2章 研究方法',
  '一、数据来源',
  '（一）遥感数据',
  '本文采用的遥感数据来自公开平台。',
  '参考文献',
  '[1] 张三. 城市热岛效应研究[J]. 地理学报, 2019, 74(3): 1-10.',
  '[2] 李四. 遥感方法[M]. 北京: 科学出版社, 2018.',
  '致谢',
  '感谢导师的悉心指导。',
  '附录A 调查问卷',
  '问卷内容略。',
  '注释',
  '① 本文数据截至2020年底。',
].join('\n');

describe('analyzeStructure', () => {
  const s = analyzeStructure(THESIS);

  it('finds thesis headings with their levels', () => {
    const byText = new Map(s.headings.map((h) => [h.text, h]));
    expect(byText.get('摘要')?.kind).toBe('abstract');
    expect(byText.get('Abstract')?.kind).toBe('abstract');
    expect(byText.get('第一章 绪论')?.level).toBe(1);
    expect(byText.get('第2章 研究方法')?.level).toBe(1);
    expect(byText.get('1.1 研究背景')?.level).toBe(2);
    expect(byText.get('1.1.1 国外研究现状')?.level).toBe(3);
    expect(byText.get('一、数据来源')?.level).toBe(2);
    expect(byText.get('（一）遥感数据')?.level).toBe(3);
    expect(byText.get('参考文献')?.kind).toBe('references');
    expect(byText.get('致谢')?.kind).toBe('acknowledgements');
    expect(byText.get('附录A 调查问卷')?.kind).toBe('appendix');
    expect(byText.get('注释')?.kind).toBe('notes');
    // Sentences are not headings.
    expect(byText.has('城市化进程不断加快。')).toBe(false);
  });

  it('partitions the text into top-level sections, the title page first', () => {
    expect(s.sections.map((x) => x.title)).toEqual([
      '基于多源数据的城市热岛效应研究',
      '摘要',
      'Abstract',
      '第一章 绪论',
      '第2章 研究方法',
      '参考文献',
      '致谢',
      '附录A 调查问卷',
      '注释',
    ]);
    for (let i = 1; i < s.sections.length; i++) expect(s.sections[i]!.start).toBe(s.sections[i - 1]!.end);
    expect(s.sections.at(-1)!.end).toBe(THESIS.length);
  });

  it('delimits the reference list up to the next top-level heading', () => {
    expect(s.references).toHaveLength(1);
    const [a, b] = s.references[0]!;
    expect(THESIS.slice(a, b)).toContain('[2] 李四');
    expect(THESIS.slice(a, b)).not.toContain('致谢');
  });

  it('takes numbered chapters "1 绪论" as level 1 when there is no 第X章', () => {
    const t = analyzeStructure('1 绪论\n研究意义重大。\n1.1 研究背景\n背景介绍。\n2 方法\n方法介绍。');
    expect(t.headings.map((h) => [h.text, h.level])).toEqual([
      ['1 绪论', 1],
      ['1.1 研究背景', 2],
      ['2 方法', 1],
    ]);
  });

  it('uses extractor headings as hints', () => {
    const text = '引言部分\n正文内容在这里。';
    const t = analyzeStructure(text, [{ start: 0, end: 4, level: 1, text: '引言部分' }]);
    expect(t.sections.map((x) => x.title)).toEqual(['引言部分']);
  });

  it('tags quotations followed or introduced by a citation, and only those', () => {
    const text =
      '正如有学者指出的，“教育的根本任务是立德树人”[3]。' +
      '另有研究认为「数据质量决定模型上限」［12］。' +
      '也有观点指出『城市是人类文明的容器』（芒福德，1961）。' +
      '张三（2019）指出：“高校应当重视课程思政建设。”' +
      '所谓“内卷”现象值得关注。';
    const q = analyzeStructure(text).quotations.map(([a, b]) => text.slice(a, b));
    expect(q).toEqual([
      '“教育的根本任务是立德树人”[3]',
      '「数据质量决定模型上限」［12］',
      '『城市是人类文明的容器』（芒福德，1961）',
      '“高校应当重视课程思政建设。”',
    ]);
  });
});
