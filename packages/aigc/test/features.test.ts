import { describe, expect, it } from 'vitest';
import { DENSE_FEATURES, denseFeatures, hashedNgrams, passageStats } from '../src/core/features.ts';
import { coefficientOfVariation, sentenceLengths, splitLines, toSymbols } from '../src/core/text.ts';
import { PERSONAL, TEMPLATED } from './samples.ts';

const feature = (text: string, name: string) => {
  const i = DENSE_FEATURES.findIndex((f) => f.name === name);
  expect(i).toBeGreaterThanOrEqual(0);
  return denseFeatures(passageStats(text))[i]!;
};

describe('text helpers', () => {
  it('gives lines code-point offsets, also after characters outside the BMP and CRLF line ends', () => {
    const text = '𠀀第一段。\r\n第二段𠀁结束。\n\n末段';
    const lines = splitLines(text);
    const cps = [...text];
    expect(lines.map((l) => l.text)).toEqual(['𠀀第一段。', '第二段𠀁结束。', '', '末段']);
    for (const l of lines) expect(cps.slice(l.start, l.end).join('')).toBe(l.text);
  });

  it('measures sentence lengths in content characters and their variation', () => {
    expect(sentenceLengths('今天下雨。我没带伞！怎么办？')).toEqual([4, 4, 3]);
    expect(coefficientOfVariation([10, 10, 10])).toBe(0);
    expect(coefficientOfVariation([2, 30, 8])).toBeGreaterThan(0.5);
  });

  it('folds letters and digits so that topics spelled in them do not count', () => {
    expect(toSymbols('在 2023 年，GPT 模型').join('')).toBe('在0000年,aaa模型');
  });
});

describe('features', () => {
  it('sees uniform sentences as less varied than uneven ones', () => {
    const uniform = '系统采用分层结构设计。数据层负责存储数据。业务层负责处理逻辑。展示层负责界面显示。';
    const uneven = '系统分层。数据层负责存储所有采集来的原始数据和中间结果，业务层处理逻辑。界面呢？';
    expect(feature(uniform, 'sentence_cv')).toBeLessThan(feature(uneven, 'sentence_cv'));
  });

  it('counts connectives, stock phrases and colloquial marks per 100 characters', () => {
    expect(feature(TEMPLATED, 'connectives')).toBeGreaterThan(feature(PERSONAL, 'connectives'));
    expect(feature(TEMPLATED, 'templates')).toBeGreaterThan(2);
    expect(feature(PERSONAL, 'templates')).toBe(0);
    expect(feature(PERSONAL, 'colloquial')).toBeGreaterThan(0);
    expect(feature(PERSONAL, 'first_person')).toBeGreaterThan(feature(TEMPLATED, 'first_person'));
  });

  it('hashes n-grams into an L2-normalised vector within the buckets', () => {
    const v = hashedNgrams(passageStats(TEMPLATED), 1024);
    let norm = 0;
    for (const [b, x] of v) {
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(1024);
      norm += x * x;
    }
    expect(norm).toBeCloseTo(1, 9);
    expect(hashedNgrams(passageStats(''), 1024).size).toBe(0);
  });
});
