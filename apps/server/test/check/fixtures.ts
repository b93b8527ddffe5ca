import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import PDFDocument from 'pdfkit';
import { FONT_FILES } from '../../src/modules/check/report/fonts.ts';

/**
 * Papers made by the tests themselves: a thesis-like text from a seeded generator (chapters,
 * a planted passage copied from a library document, a cited quotation, a reference list), written
 * as .docx (a hand-built WordprocessingML zip), .pdf (pdfkit with Noto Sans SC, so it has a real
 * CJK text layer) and .txt. The hostile files come from the engine's own fixture builders.
 */

export {
  buildEncryptedDocx,
  buildZipBombDocx,
} from '../../../../packages/simcheck/test/fixtures-src/docx.ts';
export { buildScannedPdf } from '../../../../packages/simcheck/test/fixtures-src/pdf-samples.ts';
export { encodeGb18030 } from '../../../../packages/simcheck/test/fixtures-src/txt.ts';

/** The engine's committed .doc fixture (LibreOffice's Word 97 export of its sample thesis). */
export function readDocFixture(): Uint8Array {
  return new Uint8Array(
    readFileSync(new URL('../../../../packages/simcheck/test/extract/fixtures/thesis.doc', import.meta.url)),
  );
}
/** A sentence of the .doc fixture's text. */
export const DOC_FIXTURE_SENTENCE =
  '近年来，学术不端行为受到社会的广泛关注，论文查重已成为学位授予前的必要环节。';

/** Mulberry32: a small seeded PRNG, so every run builds the same texts. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Two disjoint vocabularies: papers are written from one, library documents from the other, so
// they share no 13-character run by chance; only planted passages match.
const PAPER_WORDS = [
  '城市',
  '交通',
  '拥堵',
  '治理',
  '模式',
  '公共',
  '服务',
  '供给',
  '绩效',
  '评估',
  '居民',
  '出行',
  '意愿',
  '调查',
  '样本',
  '回归',
  '分析',
  '显著',
  '影响',
  '因素',
  '政策',
  '建议',
  '区域',
  '差异',
  '空间',
  '格局',
  '演变',
  '机制',
  '路径',
  '选择',
  '协同',
  '发展',
  '制度',
  '创新',
  '财政',
  '投入',
  '效率',
  '测度',
  '指标',
  '体系',
  '构建',
  '实证',
];
const LIBRARY_WORDS = [
  '土壤',
  '微生物',
  '群落',
  '结构',
  '多样性',
  '氮素',
  '循环',
  '根系',
  '分泌物',
  '作物',
  '产量',
  '灌溉',
  '施肥',
  '处理',
  '田间',
  '试验',
  '温度',
  '湿度',
  '光照',
  '叶片',
  '光合',
  '速率',
  '基因',
  '表达',
  '蛋白',
  '含量',
  '测定',
  '方法',
  '品种',
  '抗性',
  '病害',
  '防治',
  '生长',
  '周期',
  '种植',
  '密度',
  '水分',
  '利用',
  '效率',
  '模型',
  '预测',
  '精度',
];

function sentence(words: readonly string[], rand: () => number): string {
  const n = 6 + Math.floor(rand() * 6);
  let s = '';
  for (let i = 0; i < n; i++) {
    s += words[Math.floor(rand() * words.length)]!;
    if (i === Math.floor(n / 2)) s += '，';
  }
  return `${s}。`;
}

function paragraph(words: readonly string[], rand: () => number, chars: number): string {
  let p = '';
  while (p.length < chars) p += sentence(words, rand);
  return p;
}

/** A library document: `chars` characters of text from the library vocabulary. */
export function libraryText(seed: number, chars = 1200): string {
  const rand = prng(seed);
  const paras: string[] = [];
  let total = 0;
  while (total < chars) {
    const p = paragraph(LIBRARY_WORDS, rand, 200);
    paras.push(p);
    total += p.length;
  }
  return paras.join('\n');
}

export interface Thesis {
  /** Paragraphs; `heading` marks a chapter title (level 1). */
  blocks: { text: string; heading?: 1 | 2 }[];
  /** The text as extraction gives it back (blocks joined by '\n'). */
  text: string;
  /** Each planted passage as it stands in the paper. */
  planted: string[];
}

/**
 * A thesis of about `chars` characters: 摘要, chapters of generated prose, the planted passages
 * (verbatim copies of library text) in chapter 2, a cited quotation, and a reference list.
 */
export function buildThesis(options: { seed: number; chars: number; planted?: string[] }): Thesis {
  const rand = prng(options.seed);
  const blocks: Thesis['blocks'] = [];
  const chapters = ['第1章 绪论', '第2章 文献综述', '第3章 研究设计', '第4章 实证分析', '第5章 结论与展望'];
  const perChapter = Math.max(200, Math.floor(options.chars / (chapters.length + 1)));
  blocks.push({ text: '摘要', heading: 1 });
  blocks.push({ text: paragraph(PAPER_WORDS, rand, Math.min(300, perChapter)) });
  chapters.forEach((title, c) => {
    blocks.push({ text: title, heading: 1 });
    let written = 0;
    while (written < perChapter) {
      const p = paragraph(PAPER_WORDS, rand, 180 + Math.floor(rand() * 120));
      blocks.push({ text: p });
      written += p.length;
      if (
        c === 1 &&
        written > perChapter / 3 &&
        options.planted?.length &&
        !blocks.some((b) => b.text.includes(options.planted![0]!))
      ) {
        for (const passage of options.planted)
          blocks.push({ text: `${sentence(PAPER_WORDS, rand)}${passage}${sentence(PAPER_WORDS, rand)}` });
      }
    }
  });
  blocks.push({ text: '参考文献', heading: 1 });
  blocks.push({ text: '[1] 王五. 城市交通治理研究[J]. 管理世界, 2019(3): 12-20.' });
  blocks.push({ text: '[2] 赵六. 公共服务供给绩效评估[M]. 北京: 科学出版社, 2020.' });
  return { blocks, text: blocks.map((b) => b.text).join('\n'), planted: options.planted ?? [] };
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A minimal .docx: document, styles (Heading 1/2 with outline levels), content types, rels. */
export function buildDocx(blocks: Thesis['blocks']): Uint8Array {
  const enc = new TextEncoder();
  const body = blocks
    .map((b) => {
      const style = b.heading ? `<w:pPr><w:pStyle w:val="Heading${b.heading}"/></w:pPr>` : '';
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${escapeXml(b.text)}</w:t></w:r></w:p>`;
    })
    .join('');
  return zipSync({
    '[Content_Types].xml': enc.encode(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    ),
    '_rels/.rels': enc.encode(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': enc.encode(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ),
    'word/styles.xml': enc.encode(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style></w:styles>`,
    ),
    'word/document.xml': enc.encode(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** A PDF with a real CJK text layer (pdfkit + Noto Sans SC, ToUnicode map included). */
export function buildPdf(blocks: Thesis['blocks']): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', margin: 60 });
  doc.registerFont('cjk', readFileSync(FONT_FILES.regular));
  doc.font('cjk').fontSize(11);
  for (const b of blocks) doc.fontSize(b.heading ? 15 : 11).text(b.text);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve) =>
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks)))),
  );
  doc.end();
  return done;
}

export function buildTxt(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** A Windows program renamed to .docx: 'MZ', the DOS stub text, binary noise. */
export function buildFakeExe(): Uint8Array {
  const rand = prng(7);
  const bytes = new Uint8Array(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
  bytes.set(new TextEncoder().encode('MZ\x90\x00This program cannot be run in DOS mode.'), 0);
  return bytes;
}
