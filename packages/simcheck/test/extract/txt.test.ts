import { describe, expect, it } from 'vitest';
import { extractDocument, sniffFormat } from '../../src/extract/index.ts';
import {
  buildGb18030Txt,
  buildUtf8BomTxt,
  buildUtf8Txt,
  buildUtf16Txt,
  sampleTxtText,
} from '../fixtures-src/txt.ts';
import { expectExtractError } from './helpers.ts';

const expected = sampleTxtText.replace(/\r\n/g, '\n');

describe('plain text', () => {
  it.each([
    ['UTF-8', buildUtf8Txt()],
    ['UTF-8 with BOM', buildUtf8BomTxt()],
    ['UTF-16 LE with BOM', buildUtf16Txt(sampleTxtText, 'le')],
    ['UTF-16 BE with BOM', buildUtf16Txt(sampleTxtText, 'be')],
    ['GB18030', buildGb18030Txt()],
  ])('decodes %s and normalises CRLF to LF', async (_name, bytes) => {
    expect(sniffFormat(bytes)).toBe('txt');
    const document = await extractDocument(bytes, { fileName: '论文.txt' });
    expect(document).toMatchObject({ format: 'txt', text: expected, headings: [] });
    expect(document.text).not.toContain('\uFEFF');
  });

  it('says when it read the file as GB18030', async () => {
    const gb = await extractDocument(buildGb18030Txt());
    expect(gb.warnings.join()).toContain('GB18030');
    const utf8 = await extractDocument(buildUtf8Txt());
    expect(utf8.warnings).toEqual([]);
  });

  it('keeps the GB18030 bytes distinct from UTF-8 (the fixture really is GBK-encoded)', () => {
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(buildGb18030Txt())).toThrow();
  });

  it('keeps UTF-8 spoilt by a stray byte as UTF-8, replacing only that byte', async () => {
    const good = buildUtf8Txt(`${expected}\n${'论文查重是学位授予前的必要环节。'.repeat(20)}`);
    const spoilt = new Uint8Array(good.length + 1);
    spoilt.set(good.subarray(0, 10));
    spoilt[10] = 0xff;
    spoilt.set(good.subarray(10), 11);
    const document = await extractDocument(spoilt);
    expect(document.text).toBe(new TextDecoder().decode(spoilt));
    expect(document.text.startsWith('第一章 \uFFFD绪论')).toBe(true);
    expect(document.warnings.join()).toContain('无法识别');
  });

  it('rejects text over maxChars with too-large', async () => {
    const bytes = buildUtf8Txt('查重'.repeat(600));
    await expectExtractError(extractDocument(bytes, { limits: { maxChars: 1000 } }), 'too-large');
    const document = await extractDocument(bytes, { limits: { maxChars: 1200 } });
    expect(document.text.length).toBe(1200);
  });

  it('rejects whitespace-only text as empty', async () => {
    await expectExtractError(extractDocument(buildUtf8Txt(' \r\n\t\n ')), 'empty');
    await expectExtractError(extractDocument(new Uint8Array(0)), 'empty');
  });

  it('treats binary junk as unsupported, whatever its name', async () => {
    const junk = new Uint8Array(2048).map((_, i) => (i * 31) & 0xff);
    expect(sniffFormat(junk, 'thesis.txt')).toBeNull();
    await expectExtractError(extractDocument(junk, { fileName: 'thesis.txt' }), 'unsupported');
  });
});
