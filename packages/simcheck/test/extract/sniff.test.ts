import { describe, expect, it } from 'vitest';
import { defaultExtractLimits, ExtractError, extractDocument, sniffFormat } from '../../src/extract/index.ts';
import { resolveLimits } from '../../src/extract/limits.ts';
import { formatNumber } from '../../src/extract/numbering.ts';
import { buildSampleDocx } from '../fixtures-src/docx.ts';
import { buildSamplePdf } from '../fixtures-src/pdf-samples.ts';
import { buildUtf8Txt } from '../fixtures-src/txt.ts';
import { expectExtractError } from './helpers.ts';

describe('sniffFormat', () => {
  it('decides by content, not by name', () => {
    expect(sniffFormat(buildSampleDocx(), 'a.pdf')).toBe('docx');
    expect(sniffFormat(buildSamplePdf(), 'a.txt')).toBe('pdf');
    expect(sniffFormat(buildUtf8Txt(), 'a.docx')).toBe('txt');
    expect(sniffFormat(new Uint8Array(0))).toBeNull();
  });

  it('accepts a PDF header after leading junk, as readers do', () => {
    const pdf = buildSamplePdf();
    const padded = new Uint8Array(pdf.length + 3);
    padded.set([0x0d, 0x0a, 0x20]);
    padded.set(pdf, 3);
    expect(sniffFormat(padded)).toBe('pdf');
  });

  it('turns RTF saved as .doc away with advice', async () => {
    const rtf = buildUtf8Txt('{\\rtf1\\ansi{\\fonttbl}论文}');
    expect(sniffFormat(rtf, '论文.doc')).toBeNull();
    const error = await expectExtractError(extractDocument(rtf, { fileName: '论文.doc' }), 'unsupported');
    expect(error.message).toContain('RTF');
  });

  it('turns images away as unsupported', async () => {
    const png = Uint8Array.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    await expectExtractError(extractDocument(png, { fileName: 'scan.png' }), 'unsupported');
  });
});

describe('limits and errors', () => {
  it('has the documented defaults and ignores nonsense overrides', () => {
    expect(defaultExtractLimits).toEqual({
      maxBytes: 30 * 1024 * 1024,
      maxDecompressedBytes: 200 * 1024 * 1024,
      maxPages: 1000,
      timeoutMs: 60_000,
      maxChars: 1_000_000,
    });
    expect(Object.isFrozen(defaultExtractLimits)).toBe(true);
    expect(resolveLimits({ maxPages: 5, timeoutMs: -1, maxChars: Number.NaN })).toEqual({
      ...defaultExtractLimits,
      maxPages: 5,
    });
  });

  it('ExtractError carries a literal name, a kind and a Chinese message', () => {
    const error = new ExtractError('scanned');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExtractError');
    expect(error.kind).toBe('scanned');
    expect(error.message).toMatch(/扫描件/);
  });
});

describe('list labels', () => {
  it.each([
    [1, 'decimal', '1'],
    [3, 'chineseCounting', '三'],
    [10, 'chineseCounting', '十'],
    [12, 'chineseCountingThousand', '十二'],
    [20, 'chineseCounting', '二十'],
    [105, 'chineseCounting', '一百零五'],
    [2, 'ideographTraditional', '乙'],
    [3, 'decimalEnclosedCircle', '③'],
    [4, 'upperRoman', 'IV'],
    [28, 'lowerLetter', 'bb'],
    [7, 'decimalFullWidth', '７'],
  ])('formats %i as %s -> %s', (value, format, label) => {
    expect(formatNumber(value, format)).toBe(label);
  });
});
