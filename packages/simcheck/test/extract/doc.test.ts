import * as CFB from 'cfb';
import { describe, expect, it } from 'vitest';
import { extractDocument, sniffFormat } from '../../src/extract/index.ts';
import { expectExtractError, readFixture } from './helpers.ts';

/** Rewrites the committed .doc with its FIB changed by `edit` (on the WordDocument stream). */
function withFib(edit: (view: DataView) => void): Uint8Array {
  const container = CFB.read(readFixture('thesis.doc'), { type: 'buffer' });
  const entry = CFB.find(container, 'WordDocument')!;
  const content = Uint8Array.from(entry.content as ArrayLike<number>);
  edit(new DataView(content.buffer));
  entry.content = content as unknown as CFB.CFB$Blob;
  entry.size = content.length;
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

describe('legacy .doc', { timeout: 30_000 }, () => {
  it('extracts body, headings, table rows and notes from a Word 97 file', async () => {
    const bytes = readFixture('thesis.doc');
    expect(sniffFormat(bytes, 'whatever.bin')).toBe('doc');
    const document = await extractDocument(bytes, { fileName: '论文.doc' });
    expect(document.format).toBe('doc');
    const lines = document.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '基于文本指纹的论文查重方法研究',
        '近年来，学术不端行为受到社会的广泛关注，论文查重已成为学位授予前的必要环节。本文研究基于文本指纹的检测方法。',
        '正如文献所述，“抄袭是指将他人的作品据为己有”[1]。\t见第1页。',
        '方法\t准确率\t速度',
        '文本指纹\t95%\t快',
        '感谢导师的悉心指导。',
      ]),
    );
    // Heading levels come from the style sheet; Word's list labels (第1章, 1.1) are not in a .doc's text.
    expect(document.headings.map((heading) => [heading.level, heading.text])).toEqual([
      [1, '绪论'],
      [2, '研究背景'],
      [3, '1.1.1 指纹的选取'],
      [3, '本节小结'],
      [1, '相关工作'],
      [2, '研究现状'],
      [1, '致谢'],
    ]);
    for (const heading of document.headings) {
      expect(document.text.slice(heading.start, heading.end)).toBe(heading.text);
    }
    // Chinese quotation marks survive (word-extractor would turn them into ASCII by default).
    expect(document.text).toContain('“抄袭');
    expect(document.footnotesStart).toBeDefined();
    expect(document.text.slice(document.footnotesStart)).toBe(
      '注释\n参见《学位论文作假行为处理办法》第二条。\nSchleimer S, Wilkerson D S, Aiken A. Winnowing, 2003.',
    );
  });

  it('rejects a .doc with the FIB encryption flag as encrypted', async () => {
    const bytes = withFib((view) => view.setUint16(0x0a, view.getUint16(0x0a, true) | 0x0100, true));
    await expectExtractError(extractDocument(bytes, { fileName: '论文.doc' }), 'encrypted');
  });

  it('rejects Word 6.0/95 files as unsupported, with advice', async () => {
    const bytes = withFib((view) => view.setUint16(2, 0x0065, true));
    const error = await expectExtractError(extractDocument(bytes), 'unsupported');
    expect(error.message).toContain('.docx');
  });

  it('rejects an OLE file that is not a Word document', async () => {
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, '/Workbook', new Uint8Array(4096));
    const xls = new Uint8Array(CFB.write(container, { type: 'buffer' }) as Uint8Array);
    expect(sniffFormat(xls, 'book.doc')).toBeNull();
    await expectExtractError(extractDocument(xls, { fileName: 'book.doc' }), 'unsupported');
  });

  it('rejects a truncated .doc as broken', async () => {
    const bytes = readFixture('thesis.doc');
    await expectExtractError(extractDocument(bytes.subarray(0, 3000), { fileName: '论文.doc' }), 'broken');
  });
});
