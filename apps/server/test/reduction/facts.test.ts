import { describe, expect, it } from 'vitest';
import { checkRewrite, type FactRule } from '../../src/modules/reduction/reduction.facts.ts';
import { numberKey, numbersOf } from '../../src/modules/reduction/reduction.numbers.ts';
import { sandboxRewrite } from '../../src/modules/reduction/reduction.sandbox.ts';
import { namesOf } from '../../src/modules/reduction/reduction.segment.ts';

// The rewrite checks of 降重/降AIGC (decision 0027) on Chinese academic paragraphs: every rule
// rejects the drift it is for and names it, and legitimate rewrites (synonyms, reordering, voice
// changes, merged or split sentences) pass.

const rules = (original: string, rewrite: string): FactRule[] => [
  ...new Set(checkRewrite(original, rewrite).map((v) => v.rule)),
];
const details = (original: string, rewrite: string) => checkRewrite(original, rewrite).map((v) => v.detail);

const SURVEY =
  '2020年全国共有8所高校参与试点，在线教育用户达到3.42亿人，占网民整体的34.6%[1]。' +
  '王建华认为，学习者参与程度持续增长，且与学习效果呈显著正相关。' +
  '调查还发现，农村地区学生的参与度未见明显提高。';

const ECONOMY =
  '受疫情冲击，该省2020年第一季度地区生产总值同比下降6.8%，增速为-3.2%，低于全国平均水平。' +
  '北京大学国家发展研究院的测算表明，消费对经济增长的贡献率由65.4%降至52.1%。';

const METHOD =
  '本研究以华东师范大学、复旦大学和上海交通大学的1200名本科生为样本，采用结构方程模型检验了学业自我效能感的中介作用。' +
  '结果显示，教师支持对学习投入有显著的正向影响（β = 0.42），而学业压力对学习投入的影响不显著。';

describe('legitimate rewrites pass', () => {
  it.each([
    [
      'synonyms and reordering',
      SURVEY,
      '2020年，全国参与试点的高校共8所，在线教育用户规模达3.42亿人，在网民总体中占34.6%[1]。' +
        '王建华指出，学习者的参与程度在持续增长，并且同学习效果之间存在显著正相关。' +
        '此外调查发现，农村地区学生参与度并未见明显提高。',
    ],
    [
      'passive voice and merged sentences',
      ECONOMY,
      '该省2020年第一季度的地区生产总值受疫情冲击同比下降6.8%，增速为-3.2%，低于全国平均水平；' +
        '据北京大学国家发展研究院测算，消费对经济增长的贡献率已由65.4%降至52.1%。',
    ],
    [
      'split sentences and written-out numbers',
      METHOD,
      '本研究的样本为华东师范大学、复旦大学及上海交通大学的本科生，共1200名。研究采用结构方程模型，对学业自我效能感所起的中介作用进行了检验。' +
        '结果表明，教师支持显著正向影响学习投入（β = 0.42）；学业压力对学习投入则没有显著影响。',
    ],
    ['the sandbox rewriter', SURVEY, sandboxRewrite(SURVEY, false).replace('【沙箱示例】', '')],
    ['the sandbox rewriter, 降AIGC', METHOD, sandboxRewrite(METHOD, true).replace('【沙箱示例】', '')],
  ])('%s', (_name, original, rewrite) => {
    expect(checkRewrite(original, rewrite)).toEqual([]);
  });

  it('reads 百分之, 万/亿, full-width digits and Chinese numerals as the same numbers', () => {
    const original = '样本中有三所学校，百分之三十五的学生每周上网超过10小时，全市网民3.42亿人。';
    const rewrite = '样本涉及3所学校，35%的学生每周上网时间超过十小时，全市网民共３４２００万人。';
    expect(checkRewrite(original, rewrite)).toEqual([]);
  });
});

describe('each drift is rejected and named', () => {
  it('number: 8所 → 18所 (a number is a whole token, not a substring)', () => {
    expect(details(SURVEY, SURVEY.replace('8所', '18所'))).toEqual(['8所 → 18所']);
  });

  it('number: the sign (-3.2% → 3.2%) and the unit (6.8% → 6.8个百分点… 52.1% → 52.1) count', () => {
    expect(details(ECONOMY, ECONOMY.replace('-3.2%', '3.2%'))).toEqual(['-3.2% → 3.2%']);
    expect(rules(ECONOMY, ECONOMY.replace('52.1%', '52.1'))).toEqual(['number']);
  });

  it('number: a number moved to another sentence', () => {
    const original = '实验组的平均成绩为85分。对照组的平均成绩为78分。两组差异具有统计学意义。';
    const moved = '实验组的平均成绩为78分。对照组的平均成绩为85分。两组差异具有统计学意义。';
    expect(rules(original, moved)).toEqual(['number']);
    expect(details(original, moved)[0]).toContain('移到了别的句子');
  });

  it('name: a person, a place or an organisation changed or lost', () => {
    expect(details(SURVEY, SURVEY.replace('王建华', '王建国'))).toEqual(['王建华 → 王建国']);
    expect(rules(METHOD, METHOD.replace('复旦大学', '南京大学'))).toEqual(['name']);
    expect(rules(ECONOMY, ECONOMY.replace('北京大学国家发展研究院的', '有机构'))).toContain('name');
  });

  it('direction: 增长 → 下降, 正相关 → 负相关, 显著 → 不显著, 高于 → 低于', () => {
    expect(details(SURVEY, SURVEY.replace('持续增长', '持续下降'))).toEqual(['增长 → 下降']);
    expect(details(SURVEY, SURVEY.replace('正相关', '负相关'))).toEqual(['正相关 → 负相关']);
    expect(rules(METHOD, METHOD.replace('有显著的正向影响', '的正向影响不显著'))).toEqual(['direction']);
    expect(rules(ECONOMY, ECONOMY.replace('低于全国', '高于全国'))).toEqual(['direction']);
  });

  it('negation: a 未/不/没有 added or removed', () => {
    expect(rules(SURVEY, SURVEY.replace('未见明显提高', '明显提高'))).toEqual(['direction']);
    const original = '目前尚未形成统一的评价标准，相关研究也没有关注农村学生。';
    expect(rules(original, '目前已形成统一的评价标准，相关研究也没有关注农村学生。')).toEqual(['negation']);
  });

  it('dropped: a sentence without counterpart', () => {
    const dropped = SURVEY.replace('调查还发现，农村地区学生的参与度未见明显提高。', '');
    expect(rules(SURVEY, dropped)).toEqual(['dropped']);
  });

  it('added: a new claim sentence, a new citation, a new number or name', () => {
    const claim = `${SURVEY}这一结论已被国内外大量实证研究反复证实，具有普遍意义。`;
    expect(rules(SURVEY, claim)).toEqual(['added']);
    expect(details(SURVEY, SURVEY.replace('明显提高。', '明显提高[9]。'))).toEqual(['新增引用 [9]']);
    expect(details(METHOD, METHOD.replace('1200名本科生', '1200名本科生和300名研究生'))).toContain(
      '新增数字 300名',
    );
    expect(details(SURVEY, SURVEY.replace('王建华认为', '王建华和李明认为'))).toContain('新增名称 李明');
  });

  it('literal facts: citation marks, formulas, 《titles》 and terms stay as written', () => {
    expect(rules(SURVEY, SURVEY.replace('[1]', ''))).toEqual(['citation']);
    expect(rules(METHOD, METHOD.replace('β = 0.42', 'β = 0.24'))).toContain('formula');
    const cited = '《中国教育统计年鉴》的数据显示，采用SPSS软件分析后结论一致。';
    expect(rules(cited, '《教育统计年鉴》的数据显示，采用SPSS软件分析后结论一致。')).toContain('title');
  });

  it('length: under half or over twice the original', () => {
    expect(rules(SURVEY, SURVEY.slice(0, 40))).toContain('length');
  });
});

describe('the pieces', () => {
  it('numbers carry sign, value and unit; classifiers and a year’s 年 may change', () => {
    const keys = (s: string) => numbersOf(s).map(numberKey);
    expect(keys('增速为-3.2%，负3个百分点，8所高校，2015-2020年')).toEqual([
      '-3.2%',
      '-3',
      '8',
      '2015',
      '2020',
    ]);
    expect(keys('第三章，二〇二〇年，百分之十二，千分之五，３４．６％')).toEqual([
      '第3',
      '2020',
      '12%',
      '5‰',
      '34.6%',
    ]);
    // Words that only look like numerals are none.
    expect(keys('一般而言，进一步说，十分重要，万物，一方面，孤零零')).toEqual([]);
    // Terms keep their digits (GPT-4, H2O).
    expect(keys('GPT-4在H2O数据集上')).toEqual([]);
  });

  it('names: people (known and unknown), places and organisations; common words mis-tagged are not names', () => {
    const names = namesOf('王建华和陈静在北京大学与上海市教育委员会合作，研究二者的关联。').map(
      (n) => n.text,
    );
    expect(names).toEqual(expect.arrayContaining(['王建华', '陈静', '北京大学', '上海市']));
    expect(names).not.toContain('关联');
  });
});
