import { describe, expect, it } from 'vitest';
import { measureVerdict } from './verdict';

const base = { rateBefore: null, rateAfter: null, aigcBefore: null, aigcAfter: null };

describe('measureVerdict', () => {
  it('claims a drop of the AIGC index only when the figure after is lower', () => {
    expect(measureVerdict({ ...base, kind: 'aigc_reduction', aigcBefore: 62.4, aigcAfter: 40.2 })).toEqual({
      tone: 'success',
      text: 'AIGC指数由 62.4 降至 40.2',
    });
    const same = measureVerdict({ ...base, kind: 'aigc_reduction', aigcBefore: 62.4, aigcAfter: 62.1 });
    expect(same?.tone).toBe('warning');
    expect(same?.text).toBe('本次改写后AIGC指数基本未变（62.4 → 62.1），没有实现下降');
    const slight = measureVerdict({ ...base, kind: 'aigc_reduction', aigcBefore: 99, aigcAfter: 98.2 });
    expect(slight).toEqual({
      tone: 'warning',
      text: '本次改写后AIGC指数仅略有下降（99.0 → 98.2），建议再人工修改',
    });
    const rose = measureVerdict({ ...base, kind: 'aigc_reduction', aigcBefore: 30, aigcAfter: 35 });
    expect(rose?.text).toBe('本次改写后AIGC指数反而升高（30.0 → 35.0）');
  });

  it('judges 降重 by the similarity rate, not the AIGC index', () => {
    const v = measureVerdict({
      kind: 'reduction',
      rateBefore: 0.42,
      rateAfter: 0.418,
      aigcBefore: 60,
      aigcAfter: 20,
    });
    expect(v?.text).toBe('本次改写后文字复制比基本未变（42.0% → 41.8%），没有实现下降');
    expect(measureVerdict({ ...base, kind: 'reduction', rateBefore: 0.42, rateAfter: 0.1 })?.text).toBe(
      '文字复制比由 42.0% 降至 10.0%',
    );
  });

  it('says nothing before both figures are measured', () => {
    expect(measureVerdict({ ...base, kind: 'aigc_reduction', aigcBefore: 50 })).toBeNull();
  });
});
