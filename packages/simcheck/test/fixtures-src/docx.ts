import * as CFB from 'cfb';
import { type Zippable, zipSync } from 'fflate';
import { deflateSpaces, zipWithDeflatedPart } from './zip-bomb.ts';

/**
 * Builds .docx fixtures by hand (a zip of WordprocessingML parts), so the tests know exactly what
 * is inside: a thesis-like sample with numbered chapter headings, a table, a footnote and an
 * endnote, tracked changes, a field and a text box; and the hostile cases (zip bombs, truncation,
 * an encrypted package).
 */

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const WPS = 'http://schemas.microsoft.com/office/word/2010/wordprocessingShape';
const rootAttributes = `xmlns:w="${W}" xmlns:r="${R}" xmlns:mc="${MC}" xmlns:wps="${WPS}" mc:Ignorable="wps"`;

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>
<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>
<Override PartName="/word/endnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"/>
</Types>`;

const packageRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

const documentRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>
<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>
<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes" Target="endnotes.xml"/>
</Relationships>`;

// Heading 1 and 2 carry a multilevel list ("第1章", "1.1") as Word's thesis templates do; 'ChapterTitle'
// has no outline level and is recognised by its name '标题 1'; 'ThesisH3' inherits level 3.
const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}">
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
<w:style w:type="paragraph" w:customStyle="1" w:styleId="ThesisH3"><w:name w:val="论文三级标题"/><w:basedOn w:val="Heading3"/></w:style>
<w:style w:type="paragraph" w:customStyle="1" w:styleId="ChapterTitle"><w:name w:val="标题 1"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/></w:style>
</w:styles>`;

const numbering = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="${W}">
<w:abstractNum w:abstractNumId="0">
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading1"/><w:suff w:val="space"/><w:lvlText w:val="第%1章"/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/><w:suff w:val="space"/><w:isLgl/><w:lvlText w:val="%1.%2"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="1">
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:suff w:val="nothing"/><w:lvlText w:val="%1、"/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>`;

const p = (text: string, style?: string, extra = '') =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/>${extra}</w:pPr>` : extra ? `<w:pPr>${extra}</w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const cell = (...paragraphs: string[]) =>
  `<w:tc><w:tcPr><w:tcW w:w="2800" w:type="dxa"/></w:tcPr>${paragraphs.map((t) => p(t)).join('')}</w:tc>`;

const body = [
  p('基于文本指纹的论文查重方法研究', 'Title'),
  p('绪论', 'Heading1'),
  `<w:p><w:r><w:t>近年来，学术不端行为受到社会的广泛关注，论文查重已成为学位授予前的必要环节。</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r><w:r><w:t>本文研究基于文本指纹的检测方法。</w:t></w:r></w:p>`,
  p('研究背景', 'Heading2'),
  `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="420"/></w:tabs></w:pPr><w:r><w:t xml:space="preserve">正如文献所述，“抄袭是指将他人的作品据为己有”[1]。</w:t></w:r><w:del w:id="9" w:author="kyfw"><w:r><w:delText>（这段已删除）</w:delText></w:r></w:del><w:r><w:tab/><w:t>见第</w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t>页。</w:t></w:r></w:p>`,
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2800"/><w:gridCol w:w="2800"/><w:gridCol w:w="2800"/></w:tblGrid>`,
  `<w:tr>${cell('方法')}${cell('准确率')}${cell('速度')}</w:tr>`,
  `<w:tr>${cell('文本指纹')}${cell('95%')}${cell('快')}</w:tr>`,
  `<w:tr>${cell('语义比对', '（基于词向量）')}${cell('90%')}${cell('慢')}</w:tr>`,
  `</w:tbl>`,
  p('1.1.1 指纹的选取', 'ThesisH3'),
  `<w:p><w:r><w:t>选取指纹时采用&lt;winnowing&gt;算法</w:t></w:r><w:r><w:endnoteReference w:id="2"/></w:r><w:r><w:t>，</w:t></w:r><w:r><w:br/><w:t>保证连续13个字符的重复一定被发现。</w:t></w:r></w:p>`,
  p('本节小结', undefined, '<w:outlineLvl w:val="2"/>'),
  `<w:p><w:r><w:t>正文中的文本框：</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx><w:txbxContent>${p('文本框中的文字')}</w:txbxContent></wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>${p('文本框中的文字')}</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
  p('相关工作', 'Heading1'),
  p('研究现状', 'Heading2'),
  p('国内外学者提出了多种方法。', undefined, '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>'),
  p('这些方法各有优缺点。', undefined, '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>'),
  '<w:p/>',
  p('致谢', 'ChapterTitle'),
  p('感谢导师的悉心指导。'),
  '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>',
].join('\n');

const documentXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${rootAttributes}><w:body>
${body}
</w:body></w:document>`;

const footnotes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes xmlns:w="${W}">
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> 参见《学位论文作假行为处理办法》第二条。</w:t></w:r></w:p></w:footnote>
</w:footnotes>`;

const endnotes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:endnotes xmlns:w="${W}">
<w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote>
<w:endnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:endnote>
<w:endnote w:id="2"><w:p><w:r><w:endnoteRef/></w:r><w:r><w:t xml:space="preserve"> Schleimer S, Wilkerson D S, Aiken A. Winnowing, 2003.</w:t></w:r></w:p></w:endnote>
</w:endnotes>`;

/** The text that extraction must produce from buildSampleDocx(). */
export const sampleDocxText = [
  '基于文本指纹的论文查重方法研究',
  '第1章 绪论',
  '近年来，学术不端行为受到社会的广泛关注，论文查重已成为学位授予前的必要环节。本文研究基于文本指纹的检测方法。',
  '1.1 研究背景',
  '正如文献所述，“抄袭是指将他人的作品据为己有”[1]。\t见第3页。',
  '方法\t准确率\t速度',
  '文本指纹\t95%\t快',
  '语义比对 （基于词向量）\t90%\t慢',
  '1.1.1 指纹的选取',
  '选取指纹时采用<winnowing>算法，\n保证连续13个字符的重复一定被发现。',
  '本节小结',
  '文本框中的文字',
  '正文中的文本框：',
  '第2章 相关工作',
  '2.1 研究现状',
  '一、国内外学者提出了多种方法。',
  '二、这些方法各有优缺点。',
  '致谢',
  '感谢导师的悉心指导。',
  '注释',
  '参见《学位论文作假行为处理办法》第二条。',
  'Schleimer S, Wilkerson D S, Aiken A. Winnowing, 2003.',
].join('\n');

/** Headings (level, text) that extraction must find in buildSampleDocx(). */
export const sampleDocxHeadings: ReadonlyArray<readonly [number, string]> = [
  [1, '第1章 绪论'],
  [2, '1.1 研究背景'],
  [3, '1.1.1 指纹的选取'],
  [3, '本节小结'],
  [1, '第2章 相关工作'],
  [2, '2.1 研究现状'],
  [1, '致谢'],
];

const encoder = new TextEncoder();

export function sampleDocxParts(): Record<string, string> {
  return {
    '[Content_Types].xml': contentTypes,
    '_rels/.rels': packageRels,
    'word/_rels/document.xml.rels': documentRels,
    'word/document.xml': documentXml,
    'word/styles.xml': styles,
    'word/numbering.xml': numbering,
    'word/footnotes.xml': footnotes,
    'word/endnotes.xml': endnotes,
  };
}

/** Zips parts (string or bytes) with Deflate as Word does, or stored (level 0). */
export function zipParts(parts: Record<string, string | Uint8Array>, level: 0 | 6 = 6): Uint8Array {
  const files: Zippable = {};
  for (const [name, content] of Object.entries(parts)) {
    files[name] = [typeof content === 'string' ? encoder.encode(content) : content, { level }];
  }
  return zipSync(files);
}

export function buildSampleDocx(): Uint8Array {
  return zipParts(sampleDocxParts());
}

/** A docx whose word/document.xml inflates to `inflatedBytes`: a paragraph of spaces (a zip bomb). */
export function buildZipBombDocx(inflatedBytes: number, declaredBytes = inflatedBytes): Uint8Array {
  const head = encoder.encode(`<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>`);
  const { 'word/document.xml': _document, ...parts } = sampleDocxParts();
  return zipWithDeflatedPart(parts, 'word/document.xml', deflateSpaces(head, inflatedBytes), declaredBytes);
}

/**
 * The same bomb with headers that lie about the inflated size (they claim 1 KiB), which defeats
 * checks that trust the headers.
 */
export function buildLyingZipBombDocx(inflatedBytes: number): Uint8Array {
  return buildZipBombDocx(inflatedBytes, 1024);
}

/** A docx with `count` extra tiny entries: harmless bytes, hostile structure. */
export function buildManyEntriesDocx(count: number): Uint8Array {
  const parts: Record<string, string | Uint8Array> = sampleDocxParts();
  for (let i = 0; i < count; i++) parts[`word/media/x${i}.bin`] = new Uint8Array(1);
  return zipParts(parts, 0);
}

/** An Office-encrypted .docx: an OLE compound file holding EncryptionInfo and EncryptedPackage. */
export function buildEncryptedDocx(): Uint8Array {
  const container = CFB.utils.cfb_new();
  // Agile encryption header (version 4.4) followed by an XML descriptor; the package itself is
  // random-looking bytes: extraction must recognise the container, not decrypt it.
  const info = new Uint8Array(64);
  info.set([0x04, 0x00, 0x04, 0x00, 0x40, 0x00, 0x00, 0x00]);
  CFB.utils.cfb_add(container, '/EncryptionInfo', info);
  const packageBytes = new Uint8Array(8192).map((_, i) => (i * 131 + 7) & 0xff);
  CFB.utils.cfb_add(container, '/EncryptedPackage', packageBytes);
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A docx cut off part-way: the central directory is gone. */
export function buildTruncatedDocx(): Uint8Array {
  const zip = buildSampleDocx();
  return zip.subarray(0, Math.floor(zip.length * 0.6));
}

/** A docx whose document.xml is not well-formed XML. */
export function buildMalformedXmlDocx(): Uint8Array {
  return zipParts({
    ...sampleDocxParts(),
    'word/document.xml': `<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>断`,
  });
}
