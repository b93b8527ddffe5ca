import { createDeflate, deflateSync } from 'node:zlib';
import { buildPdf, type PdfPageSpec } from './pdf.ts';

/**
 * PDF fixtures built with the hand-written writer in pdf.ts. The sample has two pages: page 1 in
 * a Type0/Identity-H font with a ToUnicode map (a line drawn in two pieces, a paragraph broken
 * over two lines, a Latin line), page 2 in STSong-Light with the predefined UniGB-UCS2-H CMap.
 */
const samplePages: PdfPageSpec[] = [
  {
    runs: [
      { x: 72, y: 780, size: 16, font: 'cid', text: '第1章 绪论' },
      { x: 72, y: 750, size: 12, font: 'cid', text: '论文查重是学位授予前的' },
      { x: 204, y: 750, size: 12, font: 'cid', text: '必要环节。' },
      { x: 72, y: 730, size: 12, font: 'cid', text: '文本指纹方法能够发现连续' },
      { x: 72, y: 712, size: 12, font: 'cid', text: '十三个字符以上的重复。' },
      { x: 72, y: 690, size: 12, font: 'latin', text: 'Winnowing (Schleimer et al., 2003)' },
    ],
  },
  {
    runs: [
      { x: 72, y: 780, size: 16, font: 'song', text: '第2章 相关工作' },
      { x: 72, y: 750, size: 12, font: 'song', text: '国内外学者提出了多种方法。' },
    ],
  },
];

/** The text that extraction must produce from buildSamplePdf(). */
export const samplePdfText = [
  '第1章 绪论',
  '论文查重是学位授予前的必要环节。',
  '文本指纹方法能够发现连续',
  '十三个字符以上的重复。',
  'Winnowing (Schleimer et al., 2003)',
  '第2章 相关工作',
  '国内外学者提出了多种方法。',
].join('\n');

export function buildSamplePdf(): Uint8Array {
  return buildPdf({ pages: samplePages });
}

/** Two pages that are only pictures of text, as a scanner produces. */
export function buildScannedPdf(): Uint8Array {
  return buildPdf({ pages: [{ image: true }, { image: true }] });
}

/** Needs the user password 'kyfw' to open. */
export function buildEncryptedPdf(): Uint8Array {
  return buildPdf({ pages: samplePages, encrypt: { userPassword: 'kyfw', ownerPassword: 'kyfw-owner' } });
}

/** Opens without a password but forbids copying and printing (an owner password only). */
export function buildCopyProtectedPdf(): Uint8Array {
  return buildPdf({ pages: samplePages, encrypt: { userPassword: '', ownerPassword: 'kyfw-owner' } });
}

/** The sample cut to its first `fraction` of bytes. */
export function buildTruncatedPdf(fraction = 0.5): Uint8Array {
  const pdf = buildSamplePdf();
  return pdf.slice(0, Math.floor(pdf.length * fraction));
}

/** A PDF header followed by noise. */
export function buildGarbagePdf(): Uint8Array {
  const noise = new Uint8Array(4096).map((_, i) => (i * 97 + 13) & 0xff);
  const out = new Uint8Array(9 + noise.length);
  out.set(new TextEncoder().encode('%PDF-1.7\n'));
  out.set(noise, 9);
  return out;
}

export function buildManyPagesPdf(pages: number): Uint8Array {
  return buildPdf({
    pages: Array.from({ length: pages }, (_, i) => ({
      runs: [{ x: 72, y: 780, size: 12, font: 'cid' as const, text: `第${i + 1}页的文字` }],
    })),
  });
}

/**
 * A small file that is slow to read: one page whose content stream draws `operations` separate
 * text items. It compresses to a few hundred KiB but keeps pdfjs busy for seconds.
 */
export function buildSlowPdf(operations: number): Uint8Array {
  const ops: string[] = ['BT /F3 1 Tf'];
  for (let i = 0; i < operations; i++) ops.push(`1 0 0 1 ${i % 500} ${(i >> 9) % 800} Tm (x${i % 10}) Tj`);
  ops.push('ET');
  return buildPdf({ pages: [{ extraContent: ops.join('\n') }] });
}

/**
 * A decompression bomb: one page whose content stream is `inflatedBytes` of spaces (valid content,
 * nothing to draw), zlib-compressed at about 1000:1 — 500 MB make a 0.5 MB file (about 2 s to
 * compress, streamed so that the 500 MB never exist in memory). `twice`: compressed again and
 * declared `/Filter [/FlateDecode /FlateDecode]`, so the file itself is a few KB.
 */
export async function buildPdfBomb(inflatedBytes: number, twice = false): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9, memLevel: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(1 << 20, 0x20);
  for (let left = inflatedBytes; left > 0; left -= block.length) {
    const part = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const once = new Uint8Array(Buffer.concat(chunks));
  const encodedContent = twice
    ? { bytes: new Uint8Array(deflateSync(once, { level: 9 })), filter: '[/FlateDecode /FlateDecode]' }
    : { bytes: once, filter: '/FlateDecode' };
  return buildPdf({ pages: [{ encodedContent }] });
}
