import { describe, expect, it } from 'vitest';
import { normalizeText, toNormalizedIndex, toOriginalRange, WORD_TOKEN_BASE } from '../src/core/normalize.ts';

const codesOf = (s: string) => Array.from(normalizeText(s).codes);

describe('normalizeText', () => {
  it('maps full-width letters and digits to half-width, lower-cases Latin, and makes a word one unit', () => {
    expect(codesOf('ＣＮＮ模型２０１９')).toEqual(codesOf('cnn模型2019'));
    expect(codesOf('CNN')).toEqual(codesOf('cnn'));
    const units = normalizeText('采用CNN模型');
    expect(units.codes.length).toBe(5); // 采 用 CNN 模 型
    expect(units.codes[2]!).toBeGreaterThanOrEqual(WORD_TOKEN_BASE);
  });

  it('converts traditional characters to simplified, including Taiwan variant forms', () => {
    expect(codesOf('學術論文的研究方法與數據處理')).toEqual(codesOf('学术论文的研究方法与数据处理'));
    expect(codesOf('臺灣裡面')).toEqual(codesOf('台湾里面'));
  });

  it('drops spaces, line breaks and punctuation (PDF artefacts, half/full-width punctuation)', () => {
    expect(codesOf('研 究 方 法')).toEqual(codesOf('研究方法'));
    expect(codesOf('本文提出一种\n新的检测方法。')).toEqual(codesOf('本文提出一种新的检测方法'));
    expect(codesOf('结果表明，该方法有效')).toEqual(codesOf('结果表明,该方法有效'));
  });

  it('keeps a map from every normalised character back to its original range', () => {
    const text = '研 究\n方法：ＡＢＣ１２ 與 𠀀字。';
    const n = normalizeText(text);
    for (let i = 0; i < n.codes.length; i++) {
      const piece = text.slice(n.start[i]!, n.end[i]!);
      // The original range of a unit normalises to exactly that unit.
      expect(Array.from(normalizeText(piece).codes)).toEqual([n.codes[i]]);
      if (i > 0) expect(n.start[i]!).toBeGreaterThanOrEqual(n.end[i - 1]!);
    }
    expect(toOriginalRange(n, 0, n.codes.length)).toEqual([0, text.length - 1]);
    expect(toNormalizedIndex(n, text.indexOf('方'))).toBe(2);
  });

  it('round-trips offsets on random mixed text', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = Array.from('研究方法學術，。 \n\tＡａB1２“”「」的了𠀀');
    for (let round = 0; round < 50; round++) {
      let text = '';
      for (let i = 0; i < 60; i++) text += alphabet[rnd(alphabet.length)];
      const n = normalizeText(text);
      for (let i = 0; i < n.codes.length; i++) {
        expect(n.end[i]!).toBeGreaterThan(n.start[i]!);
        expect(Array.from(normalizeText(text.slice(n.start[i]!, n.end[i]!)).codes)).toEqual([n.codes[i]]);
      }
      // Everything that was dropped is punctuation or space.
      const kept = new Uint8Array(text.length);
      for (let i = 0; i < n.codes.length; i++) kept.fill(1, n.start[i]!, n.end[i]!);
      for (let x = 0; x < text.length; x++) if (!kept[x]) expect(text[x]).toMatch(/[\s，。“”「」]/);
    }
  });

  it('expands a character into several (NFKC of ㍿) with each piece mapped back to it, in short and long texts', () => {
    for (const text of ['㍿研究', `${'研究'.repeat(6000)}㍿${'㍿'.repeat(50)}方法`]) {
      const n = normalizeText(text);
      const at = text.indexOf('㍿');
      const first = toNormalizedIndex(n, at);
      expect(Array.from(n.codes.subarray(first, first + 4))).toEqual(codesOf('株式会社'));
      for (let i = first; i < first + 4; i++) expect([n.start[i], n.end[i]]).toEqual([at, at + 1]);
      expect(n.codes.length).toBe(
        text.length - (text.match(/㍿/g)?.length ?? 0) + 4 * (text.match(/㍿/g)?.length ?? 0),
      );
      expect(n.end[n.codes.length - 1]).toBe(text.length);
    }
  });

  it('keeps every result intact while many short texts are normalised after it', () => {
    const texts = Array.from(
      { length: 3000 },
      (_, i) => `第${i}段，采用ＣＮＮ模型研究${'方法與數據'.repeat(i % 40)}。`,
    );
    const copy = (n: ReturnType<typeof normalizeText>) => [
      Array.from(n.codes),
      Array.from(n.start),
      Array.from(n.end),
    ];
    const results = texts.map((t) => normalizeText(t));
    const snapshot = texts.map((t) => copy(normalizeText(t))); // each copied as soon as it is made
    for (const t of texts) normalizeText(t); // as many again
    results.forEach((n, i) => {
      expect(copy(n)).toEqual(snapshot[i]);
    });
    expect(results[2999]!.codes.length).toBe(codesOf(texts[2999]!).length);
  });
});
