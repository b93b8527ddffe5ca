import { describe, expect, it } from 'vitest';
import { fullWidth, pdfBreak, reorderSentences, substituteSynonyms, traditional } from '../lib/obfuscate.ts';
import { createRng } from '../lib/prng.ts';
import { cpLength, cpSlice, splitSentences } from '../lib/text.ts';

const PASSAGE =
  '采用修正的Rodrigues参数(MRP),建立了飞行器姿态控制系统的数学模型；利用刚体姿态动力学方程建立了非线性控制系统模型.仿真结果表明,该方法简化了设计过程,并且控制器具有较快的响应速度.';

describe('seeded PRNG', () => {
  it('gives the same sequence for the same seed and a different one for another seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('text helpers', () => {
  it('splits sentences on Chinese and half-width terminators but not inside 3.5', () => {
    const s = splitSentences('版本3.5发布了.结果良好；继续。');
    expect(s).toEqual(['版本3.5发布了.', '结果良好；', '继续。']);
    expect(splitSentences(PASSAGE).join('')).toBe(PASSAGE);
  });
  it('counts and slices by code points', () => {
    expect(cpLength('𠀀字')).toBe(2);
    expect(cpSlice('𠀀字典', 1, 3)).toBe('字典');
  });
});

describe('disguises', () => {
  it('full width: every ASCII character changes and NFKC brings the passage back', () => {
    const fw = fullWidth(PASSAGE);
    expect(/[!-~]/.test(fw)).toBe(false);
    expect(fw.normalize('NFKC')).toBe(PASSAGE.normalize('NFKC'));
  });
  it('PDF breaks only insert whitespace', () => {
    const broken = pdfBreak(PASSAGE, createRng(1));
    expect(broken).toContain('\n');
    expect(broken.replace(/\s/g, '')).toBe(PASSAGE.replace(/\s/g, ''));
  });
  it('reordering permutes whole sentences', () => {
    const r = reorderSentences(PASSAGE, createRng(3))!;
    expect(r).not.toBe(PASSAGE);
    expect(splitSentences(r).sort()).toEqual(splitSentences(PASSAGE).sort());
    expect(reorderSentences('只有一句。', createRng(3))).toBeNull();
  });
  it('synonym substitution replaces segmented words found in the table', () => {
    const table = new Map([
      ['建立', ['构建']],
      ['方法', ['办法']],
    ]);
    const r = substituteSynonyms(PASSAGE, createRng(5), table, 1);
    expect(r.replaced).toBeGreaterThanOrEqual(2);
    expect(r.text).toContain('构建');
    expect(r.text).toContain('办法');
    expect(r.text).not.toContain('建立');
  });
  it('traditional characters via OpenCC', () => {
    expect(traditional('学习计算机')).toBe('學習計算機');
  });
});
