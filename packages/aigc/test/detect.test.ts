import { describe, expect, it } from 'vitest';
import { DENSE_FEATURES, passageStats } from '../src/core/features.ts';
import { type AigcModel, scorePassage } from '../src/core/model.ts';
import {
  detectAigc,
  detectText,
  FRAME_INDEX,
  REASON_LABELS,
  shippedModel,
  THRESHOLD_INDEX,
  toUnits,
  VERDICT_TEXTS,
  verdictOf,
} from '../src/index.ts';
import {
  HUMAN_CONCLUSION,
  PERSONAL,
  PERSONAL_REPORT,
  TEMPLATE_CLOSING,
  TEMPLATE_OPENING,
  TEMPLATED,
} from './samples.ts';

/** A model with only a bias: every passage has the same margin. */
function constantModel(bias: number, thresholdMargin: number): AigcModel {
  const n = DENSE_FEATURES.length;
  return {
    version: 'test',
    buckets: 16,
    dense: {
      names: DENSE_FEATURES.map((f) => f.name),
      mean: new Array(n).fill(0),
      std: new Array(n).fill(1),
      weights: new Array(n).fill(0),
    },
    hashed: new Array(16).fill(0),
    bias,
    thresholdMargin,
    minReliableChars: 50,
    provenance: {},
  };
}

describe('calibration', () => {
  it('puts a passage whose margin equals the threshold margin at index 50, and is monotone around it', () => {
    const stats = passageStats(TEMPLATED);
    expect(scorePassage(constantModel(1.2, 1.2), stats).index).toBe(THRESHOLD_INDEX);
    expect(scorePassage(constantModel(1.3, 1.2), stats).index).toBeGreaterThan(THRESHOLD_INDEX);
    expect(scorePassage(constantModel(1.1, 1.2), stats).index).toBeLessThan(THRESHOLD_INDEX);
  });

  it('weights the document index by the paragraphs’ characters', () => {
    const text = `${TEMPLATED}\n${PERSONAL}`;
    const r = detectAigc(text);
    expect(r.paragraphs.length).toBe(2);
    const [a, b] = r.paragraphs as [(typeof r.paragraphs)[0], (typeof r.paragraphs)[0]];
    expect(r.score).toBeCloseTo((a.score * a.chars + b.score * b.chars) / (a.chars + b.chars), 0);
    expect(r.chars).toBe(a.chars + b.chars);
  });

  it('is reliable only at or above the threshold and with enough text', () => {
    expect(detectText(constantModel(5, 0), TEMPLATED).reliable).toBe(true);
    expect(detectText(constantModel(-5, 0), TEMPLATED).reliable).toBe(false);
    expect(detectText(constantModel(5, 0), '人工智能发挥着重要作用。').reliable).toBe(false);
    const empty = detectAigc('');
    expect(empty).toMatchObject({ score: 0, reliable: false, paragraphs: [], reasons: [] });
  });

  it('ships a model whose threshold came from cross-validated human text at ≤ 0.5% per source', () => {
    const cv = shippedModel.provenance.crossValidation as Record<string, number>;
    for (const key of ['fpr_hc3_qa', 'fpr_agt_hc3', 'fpr_csl']) expect(cv[key]).toBeLessThanOrEqual(0.005);
    expect(shippedModel.hashed.length).toBe(shippedModel.buckets);
    expect(shippedModel.dense.names).toEqual(DENSE_FEATURES.map((f) => f.name));
  });
});

describe('detectAigc with the shipped model', () => {
  it('flags assistant-style text with readable reasons and leaves personal writing unflagged', () => {
    const ai = detectAigc(TEMPLATED);
    expect(ai.reliable).toBe(true);
    expect(ai.paragraphs[0]!.reasons.length).toBeGreaterThan(0);
    for (const reason of ai.reasons) expect(reason.label).toBe(REASON_LABELS[reason.code]);
    const human = detectAigc(PERSONAL);
    expect(human.reliable).toBe(false);
    expect(human.score).toBeLessThan(THRESHOLD_INDEX);
    expect(human.paragraphs.every((p) => p.reasons.length === 0)).toBe(true);
  });

  it('scores prose only: headings, reference entries and blank lines are left out; offsets are code points', () => {
    const text = `第一章 绪论\n\n𠀀${TEMPLATED}\n参考文献\n[1] 张三. 人工智能教育研究[J]. 教育学报, 2020, 12(3): 1-10.\n`;
    const units = toUnits(text);
    expect(units.length).toBe(1);
    const cps = [...text];
    expect(cps.slice(units[0]!.start, units[0]!.end).join('')).toBe(`𠀀${TEMPLATED}`);
  });

  it('merges consecutive short paragraphs into one scoring unit', () => {
    const text =
      '本研究采用问卷调查。\n共发放问卷三百份。\n回收有效问卷二百八十份。\n有效率为百分之九十三。\n数据用统计软件分析，结果见下表，差异显著。\n各组之间的比较也一并列出。';
    const units = toUnits(text);
    expect(units.length).toBeLessThan(6);
    expect(units[0]!.start).toBe(0);
  });
});

describe('template openings and closings (issue 23)', () => {
  it('flags a stock opening and a stacked-summary closing with the rule’s reason, at or above FRAME_INDEX', () => {
    const doc = [TEMPLATE_OPENING, PERSONAL_REPORT, TEMPLATED, TEMPLATE_CLOSING].join('\n');
    const r = detectAigc(doc);
    const [opening, personal, , closing] = r.paragraphs;
    for (const p of [opening!, closing!]) {
      expect(p.reliable).toBe(true);
      expect(p.score).toBeGreaterThanOrEqual(FRAME_INDEX);
      expect(p.reasons[0]).toEqual({ code: 'template_frame', label: REASON_LABELS.template_frame });
    }
    expect(personal!.reliable).toBe(false);
    expect(verdictOf(r)).toBe(VERDICT_TEXTS.likely);
  });

  it('flags each template paragraph on its own too (降AIGC picks its targets paragraph by paragraph)', () => {
    for (const text of [TEMPLATE_OPENING, TEMPLATE_CLOSING]) {
      const r = detectAigc(text);
      expect(r.paragraphs.some((p) => p.score >= r.threshold && p.reliable)).toBe(true);
    }
  });

  it('leaves a thesis’s own conclusion with one 综上所述 and real findings unflagged', () => {
    const r = detectAigc(HUMAN_CONCLUSION);
    expect(r.paragraphs[0]!.reliable).toBe(false);
    expect(r.paragraphs[0]!.reasons.some((x) => x.code === 'template_frame')).toBe(false);
  });
});

describe('verdictOf agrees with the shading', () => {
  it('never says 未见明显AI生成特征 while a paragraph is flagged', () => {
    // one flagged paragraph among personal writing: the document index stays below the threshold
    const doc = [PERSONAL, PERSONAL_REPORT, PERSONAL, TEMPLATED].join('\n');
    const r = detectAigc(doc);
    expect(r.paragraphs.some((p) => p.reliable)).toBe(true);
    expect(r.reliable).toBe(false);
    expect(verdictOf(r)).toBe(VERDICT_TEXTS.partial);
    expect(verdictOf(detectAigc(PERSONAL + PERSONAL_REPORT))).toBe(VERDICT_TEXTS.none);
    expect(verdictOf(detectAigc('人工智能发挥着重要作用。'))).toBe(VERDICT_TEXTS.tooShort);
  });
});
