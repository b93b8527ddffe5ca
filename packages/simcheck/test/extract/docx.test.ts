import { describe, expect, it } from 'vitest';
import { extractDocument, sniffFormat } from '../../src/extract/index.ts';
import {
  buildEncryptedDocx,
  buildLyingZipBombDocx,
  buildMalformedXmlDocx,
  buildManyEntriesDocx,
  buildSampleDocx,
  buildTruncatedDocx,
  buildZipBombDocx,
  sampleDocxHeadings,
  sampleDocxParts,
  sampleDocxText,
  zipParts,
} from '../fixtures-src/docx.ts';
import { expectExtractError } from './helpers.ts';

describe('.docx', { timeout: 30_000 }, () => {
  it('extracts body, numbered headings, table rows, text box and notes in order', async () => {
    const bytes = buildSampleDocx();
    expect(sniffFormat(bytes)).toBe('docx');
    const document = await extractDocument(bytes, { fileName: '论文.docx' });
    expect(document.format).toBe('docx');
    expect(document.text).toBe(sampleDocxText);
    expect(document.warnings).toEqual([]);
  });

  it('reports heading levels from styles, inherited styles, style names and outline levels, with offsets', async () => {
    const document = await extractDocument(buildSampleDocx());
    expect(document.headings.map((heading) => [heading.level, heading.text])).toEqual(sampleDocxHeadings);
    for (const heading of document.headings) {
      expect(document.text.slice(heading.start, heading.end)).toBe(heading.text);
      // Each heading is a whole line.
      expect(document.text[heading.start - 1]).toBe('\n');
      expect(document.text[heading.end]).toBe('\n');
    }
    // The title and table rows are not headings.
    expect(document.headings.some((heading) => heading.text.includes('论文查重方法研究'))).toBe(false);
  });

  it('puts table cells on one line separated by tabs, and joins paragraphs inside a cell', async () => {
    const { text } = await extractDocument(buildSampleDocx());
    const rows = text.split('\n').filter((line) => line.includes('\t') && !line.startsWith('正如'));
    expect(rows.map((row) => row.split('\t'))).toEqual([
      ['方法', '准确率', '速度'],
      ['文本指纹', '95%', '快'],
      ['语义比对 （基于词向量）', '90%', '慢'],
    ]);
  });

  it('appends referenced footnotes then endnotes under 注释, and sets footnotesStart there', async () => {
    const document = await extractDocument(buildSampleDocx());
    expect(document.footnotesStart).toBeDefined();
    expect(document.text.slice(document.footnotesStart)).toBe(
      '注释\n参见《学位论文作假行为处理办法》第二条。\nSchleimer S, Wilkerson D S, Aiken A. Winnowing, 2003.',
    );
    expect(document.text.slice(0, document.footnotesStart)).not.toContain('参见');
  });

  it('leaves out deleted revisions, field codes and the duplicate fallback of a text box', async () => {
    const { text } = await extractDocument(buildSampleDocx());
    expect(text).not.toContain('这段已删除');
    expect(text).not.toContain('PAGE');
    expect(text.split('文本框中的文字').length - 1).toBe(1);
  });

  it('has no footnotesStart when the document has no notes', async () => {
    const parts = sampleDocxParts();
    const documentXml = parts['word/document.xml']!.replace(/<w:(foot|end)noteReference w:id="\d+"\/>/g, '');
    const document = await extractDocument(zipParts({ ...parts, 'word/document.xml': documentXml }));
    expect(document.footnotesStart).toBeUndefined();
    expect(document.text).not.toContain('注释');
  });

  it('finds headings by style id when styles.xml is missing', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const xml = `<w:document xmlns:w="${W}"><w:body><w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>研究方法</w:t></w:r></w:p><w:p><w:r><w:t>正文</w:t></w:r></w:p></w:body></w:document>`;
    const document = await extractDocument(zipParts({ 'word/document.xml': xml }));
    expect(document.text).toBe('研究方法\n正文');
    expect(document.headings).toEqual([{ start: 0, end: 4, level: 2, text: '研究方法' }]);
  });

  it('rejects an Office-encrypted .docx (an OLE container with EncryptedPackage) as encrypted', async () => {
    const bytes = buildEncryptedDocx();
    expect(sniffFormat(bytes, '论文.docx')).toBe('docx');
    const error = await expectExtractError(extractDocument(bytes, { fileName: '论文.docx' }), 'encrypted');
    expect(error.message).toBe('文件已加密，请去除密码后重新上传');
  });

  it('rejects a zip bomb from its declared size, without inflating it', async () => {
    // 300 MiB of spaces in about 2 MiB.
    const bytes = buildZipBombDocx(300 * 1024 * 1024);
    expect(bytes.length).toBeLessThan(3 * 1024 * 1024);
    await expectExtractError(extractDocument(bytes), 'too-large');
  });

  it('stops inflating a zip bomb whose headers lie about its size', async () => {
    const bytes = buildLyingZipBombDocx(64 * 1024 * 1024);
    const error = await extractDocument(bytes).then(
      () => undefined,
      (caught: unknown) => caught as { kind?: string },
    );
    expect(['broken', 'too-large']).toContain(error?.kind);
  });

  it('enforces maxDecompressedBytes over the parts it reads', async () => {
    const bytes = buildZipBombDocx(4 * 1024 * 1024);
    await expectExtractError(
      extractDocument(bytes, { limits: { maxDecompressedBytes: 1024 * 1024 } }),
      'too-large',
    );
  });

  it('rejects an archive with too many entries', async () => {
    await expectExtractError(extractDocument(buildManyEntriesDocx(12_000)), 'too-large');
  });

  it('rejects truncated and malformed files as broken', async () => {
    await expectExtractError(extractDocument(buildTruncatedDocx(), { fileName: '论文.docx' }), 'broken');
    await expectExtractError(extractDocument(buildMalformedXmlDocx()), 'broken');
  });

  it('does not expand XML entities (a billion-laughs document.xml stays small)', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const entities = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    ).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY lol0 "哈">${entities}]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>笑&lol9;声 &amp; &#x4E2D;&#25991;</w:t></w:r></w:p></w:body></w:document>`;
    const document = await extractDocument(zipParts({ 'word/document.xml': xml }));
    expect(document.text).toBe('笑&lol9;声 & 中文');
  });

  it('rejects a document with no text as empty', async () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const xml = `<w:document xmlns:w="${W}"><w:body><w:p/><w:p><w:r><w:t> </w:t></w:r></w:p></w:body></w:document>`;
    await expectExtractError(extractDocument(zipParts({ 'word/document.xml': xml })), 'empty');
  });

  it('stops at maxChars', async () => {
    await expectExtractError(extractDocument(buildSampleDocx(), { limits: { maxChars: 100 } }), 'too-large');
  });

  it('does not read a spreadsheet or another zip as a Word document', async () => {
    const xlsx = zipParts({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' });
    expect(sniffFormat(xlsx, 'book.docx')).toBeNull();
    await expectExtractError(extractDocument(xlsx, { fileName: 'book.docx' }), 'unsupported');
  });
});
