/**
 * Report units: by default code points (the CLI contract); with `units: 'product'` the figures are
 * 字数 (whitespace not counted, as the paper-check service shows them) and offsets are UTF-16, both
 * for the checked text and for the source. The matches themselves do not change.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, checkText, countChars, type LocalIndex, type Report } from '../src/index.ts';
import { LIBRARY, makeTempDir, OWN_OTHER, SRC_ECONOMY, SRC_SOIL } from './fixtures.ts';

let dir: string;
let index: LocalIndex;

// A thesis with a character outside the BMP before the copied passages, PDF-like line breaks, a
// full-width space and spaces inside them, so that the two units differ everywhere.
const SOIL_BROKEN = `${SRC_SOIL.slice(0, 40)}\n\n${SRC_SOIL.slice(40, 80)} \u3000${SRC_SOIL.slice(80)}`;
const TEXT = `第1章 绪论\n𠀀𠮷研究背景。${OWN_OTHER}\n${SOIL_BROKEN}\n  ${OWN_OTHER}\n${SRC_ECONOMY}`;

beforeAll(async () => {
  dir = makeTempDir('units');
  index = await buildIndex(dir, LIBRARY);
});

afterAll(async () => {
  await index.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nonWhitespace = (s: string) => [...s].filter((ch) => !/\s/u.test(ch)).length;

describe('countChars', () => {
  it('counts what a student sees as 字数: code points other than whitespace', () => {
    expect(countChars('研究 方法\n\n𠀀ab\u3000c\t')).toBe(8);
    expect(countChars('研究 方法\n\n𠀀ab\u3000c\t', 'codepoints')).toBe(13);
    // every BMP code unit is whitespace for it exactly when JavaScript's \s says so
    let all = '';
    for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) all += String.fromCharCode(c);
    expect(countChars(all)).toBe(nonWhitespace(all));
  });
});

describe("checkText with units: 'product'", () => {
  let byCodePoints: Report;
  let product: Report;
  beforeAll(async () => {
    byCodePoints = await checkText(index, TEXT);
    product = await checkText(index, TEXT, { units: 'product' });
  });

  it('finds the same passages, located by UTF-16 offsets in the text and in the source', () => {
    expect(product.matches.length).toBeGreaterThan(1);
    expect(product.matches.map((m) => [m.sourceId, m.kind])).toEqual(
      byCodePoints.matches.map((m) => [m.sourceId, m.kind]),
    );
    const soil = product.matches.find((m) => m.sourceId === 'soil');
    expect(soil).toBeDefined();
    // UTF-16 offsets: the text sliced with them is the passage, whitespace and all
    expect(TEXT.slice(soil!.start, soil!.end)).toContain(SOIL_BROKEN.slice(0, 60));
    const source = LIBRARY.find((d) => d.id === 'soil')!.text;
    expect(source.slice(soil!.sourceStart, soil!.sourceEnd)).toContain(SRC_SOIL.slice(0, 60));
    // and the code-point report is shifted by the two characters outside the BMP before it
    const cp = byCodePoints.matches.find((m) => m.sourceId === 'soil')!;
    expect(soil!.start - cp.start).toBe(2);
  });

  it('counts 字数 without whitespace: total, copied, each match, section and source', () => {
    expect(product.chars).toBe(nonWhitespace(TEXT));
    expect(byCodePoints.chars).toBe([...TEXT].length);
    for (const m of product.matches) expect(m.chars).toBe(nonWhitespace(TEXT.slice(m.start, m.end)));
    const copied = new Set<number>();
    for (const m of product.matches)
      for (let i = m.start; i < m.end; i++) if (!/\s/u.test(TEXT[i]!)) copied.add(i);
    expect(product.copiedChars).toBe(copied.size);
    expect(product.ratio).toBeCloseTo(product.copiedChars / product.chars, 12);
    expect(product.sections.reduce((n, s) => n + s.chars, 0)).toBe(product.chars);
    for (const s of product.sections) expect(s.chars).toBe(nonWhitespace(TEXT.slice(s.start, s.end)));
    const soil = product.sources.find((s) => s.sourceId === 'soil')!;
    const soilChars = product.matches.filter((m) => m.sourceId === 'soil').reduce((n, m) => n + m.chars, 0);
    expect(soil.copiedChars).toBe(soilChars);
    expect(product.maxSingleSourceRatio).toBe(product.sources[0]!.ratio);
  });

  it('refuses units it does not know', async () => {
    await expect(checkText(index, TEXT, { units: 'bytes' as never })).rejects.toThrow(RangeError);
  });
});
