/**
 * Heading paragraphs of a Word 97–2003 binary file, read from the style sheet (STSH) and the
 * paragraph property pages (PAPX FKPs) through the piece table, as [MS-DOC] describes them.
 * word-extractor gives the text but not the styles, so this reads just enough to say which
 * paragraphs are headings and at which level; doc.ts then finds those paragraphs among the lines.
 * Best effort by design: anything unexpected yields no headings rather than an error.
 */

export interface DocHeading {
  text: string;
  level: number;
}

interface Piece {
  cpStart: number;
  cpEnd: number;
  fcStart: number;
  compressed: boolean;
}

interface StyleInfo {
  sti: number;
  name: string;
  base: number;
  outline?: number;
}

const sprmPOutLvl = 0x2640;
const headingNames = [/^heading\s*([1-9])$/i, /^标题\s*([1-9])$/];

export function readDocHeadings(wordDocument: Uint8Array, table: Uint8Array): DocHeading[] {
  const word = view(wordDocument);
  const csw = word.getUint16(32, true);
  const lwStart = 34 + csw * 2;
  const cslw = word.getUint16(lwStart, true);
  const ccpText = word.getInt32(lwStart + 2 + 3 * 4, true);
  const fcLcbStart = lwStart + 2 + cslw * 4 + 2;
  const fcLcb = (index: number) => ({
    fc: word.getUint32(fcLcbStart + index * 8, true),
    lcb: word.getUint32(fcLcbStart + index * 8 + 4, true),
  });
  const styles = readStyles(table, fcLcb(1));
  const pieces = readPieces(table, fcLcb(33));
  const paragraphs = readParagraphRuns(wordDocument, table, fcLcb(13));

  const found: { cp: number; heading: DocHeading }[] = [];
  for (const run of paragraphs) {
    const level = paragraphLevel(run.istd, run.outline, styles);
    if (level === undefined) continue;
    const located = textOfFcRange(wordDocument, pieces, run.fcStart, run.fcEnd, ccpText);
    if (!located) continue;
    const text = cleanText(located.text);
    if (text !== '') found.push({ cp: located.cp, heading: { text, level } });
  }
  return found.sort((a, b) => a.cp - b.cp).map((entry) => entry.heading);
}

function paragraphLevel(
  istd: number,
  outline: number | undefined,
  styles: Map<number, StyleInfo>,
): number | undefined {
  if (outline !== undefined) return outline <= 8 ? outline + 1 : undefined;
  for (let current = istd, depth = 0; depth < 12; depth++) {
    const style = styles.get(current);
    if (!style) return undefined;
    if (style.outline !== undefined) return style.outline <= 8 ? style.outline + 1 : undefined;
    if (style.sti >= 1 && style.sti <= 9) return style.sti;
    for (const pattern of headingNames) {
      const match = pattern.exec(style.name.trim());
      if (match) return Number(match[1]);
    }
    if (style.base === 0x0fff || style.base === current) return undefined;
    current = style.base;
  }
  return undefined;
}

function readStyles(table: Uint8Array, { fc, lcb }: { fc: number; lcb: number }): Map<number, StyleInfo> {
  const styles = new Map<number, StyleInfo>();
  if (lcb < 4 || fc + lcb > table.length) return styles;
  const stsh = view(table.subarray(fc, fc + lcb));
  const cbStshi = stsh.getUint16(0, true);
  const cstd = stsh.getUint16(2, true);
  const cbStdBase = stsh.getUint16(4, true);
  let at = 2 + cbStshi;
  for (let istd = 0; istd < cstd && at + 2 <= stsh.byteLength; istd++) {
    const cbStd = stsh.getUint16(at, true);
    const start = at + 2;
    at = start + cbStd;
    if (cbStd === 0 || at > stsh.byteLength) continue;
    const sti = stsh.getUint16(start, true) & 0x0fff;
    const word2 = stsh.getUint16(start + 2, true);
    const stk = word2 & 0x000f;
    const base = word2 >> 4;
    let cursor = start + cbStdBase;
    const cch = stsh.getUint16(cursor, true);
    cursor += 2;
    let name = '';
    for (let i = 0; i < cch && cursor + 2 <= at; i++, cursor += 2)
      name += String.fromCharCode(stsh.getUint16(cursor, true));
    cursor += 2; // terminating null
    const style: StyleInfo = { sti, name, base };
    if (stk === 1 && cursor + 2 <= at) {
      // A paragraph style's first UPX holds its paragraph properties: istd, then sprms.
      if (cursor % 2 === 1) cursor++;
      const cbUpx = stsh.getUint16(cursor, true);
      const upxStart = cursor + 2;
      if (cbUpx >= 2 && upxStart + cbUpx <= at) {
        style.outline = findOutline(new Uint8Array(stsh.buffer, stsh.byteOffset + upxStart + 2, cbUpx - 2));
      }
    }
    styles.set(istd, style);
  }
  return styles;
}

function readPieces(table: Uint8Array, { fc, lcb }: { fc: number; lcb: number }): Piece[] {
  if (lcb === 0 || fc + lcb > table.length) return [];
  const clx = view(table.subarray(fc, fc + lcb));
  let at = 0;
  while (at < clx.byteLength && clx.getUint8(at) === 0x01) at += 3 + clx.getUint16(at + 1, true); // Prc
  if (at >= clx.byteLength || clx.getUint8(at) !== 0x02) return [];
  const size = clx.getUint32(at + 1, true);
  const start = at + 5;
  const count = (size - 4) / 12;
  if (!Number.isInteger(count) || start + size > clx.byteLength) return [];
  const pieces: Piece[] = [];
  for (let i = 0; i < count; i++) {
    const fcValue = clx.getUint32(start + (count + 1) * 4 + i * 8 + 2, true);
    const compressed = (fcValue & 0x40000000) !== 0;
    const raw = fcValue & 0x3fffffff;
    pieces.push({
      cpStart: clx.getUint32(start + i * 4, true),
      cpEnd: clx.getUint32(start + (i + 1) * 4, true),
      fcStart: compressed ? raw / 2 : raw,
      compressed,
    });
  }
  return pieces;
}

interface ParagraphRun {
  fcStart: number;
  fcEnd: number;
  istd: number;
  outline?: number;
}

function readParagraphRuns(
  wordDocument: Uint8Array,
  table: Uint8Array,
  { fc, lcb }: { fc: number; lcb: number },
): ParagraphRun[] {
  if (lcb < 12 || fc + lcb > table.length) return [];
  const plc = view(table.subarray(fc, fc + lcb));
  const count = (lcb - 4) / 8;
  const runs: ParagraphRun[] = [];
  for (let i = 0; i < count; i++) {
    const pn = plc.getUint32((count + 1) * 4 + i * 4, true) & 0x3fffff;
    const pageStart = pn * 512;
    if (pageStart + 512 > wordDocument.length) continue;
    const page = view(wordDocument.subarray(pageStart, pageStart + 512));
    const crun = page.getUint8(511);
    for (let j = 0; j < crun; j++) {
      const fcStart = page.getUint32(j * 4, true);
      const fcEnd = page.getUint32((j + 1) * 4, true);
      const bOffset = page.getUint8((crun + 1) * 4 + j * 13) * 2;
      if (bOffset === 0 || bOffset >= 511) {
        runs.push({ fcStart, fcEnd, istd: 0 });
        continue;
      }
      let cb = page.getUint8(bOffset);
      let at = bOffset + 1;
      let length: number;
      if (cb === 0) {
        cb = page.getUint8(at);
        at++;
        length = cb * 2;
      } else length = cb * 2 - 1;
      if (at + length > 511 || length < 2) {
        runs.push({ fcStart, fcEnd, istd: 0 });
        continue;
      }
      const istd = page.getUint16(at, true);
      const outline = findOutline(new Uint8Array(page.buffer, page.byteOffset + at + 2, length - 2));
      runs.push(outline === undefined ? { fcStart, fcEnd, istd } : { fcStart, fcEnd, istd, outline });
    }
  }
  return runs;
}

/** Looks through a grpprl for sprmPOutLvl. */
function findOutline(grpprl: Uint8Array): number | undefined {
  const data = view(grpprl);
  let at = 0;
  let outline: number | undefined;
  while (at + 2 <= data.byteLength) {
    const sprm = data.getUint16(at, true);
    at += 2;
    const spra = sprm >> 13;
    let size: number;
    if (spra === 0 || spra === 1) size = 1;
    else if (spra === 2 || spra === 4 || spra === 5) size = 2;
    else if (spra === 3) size = 4;
    else if (spra === 7) size = 3;
    else if (sprm === 0xd608 || sprm === 0xd606) {
      if (at + 2 > data.byteLength) break;
      size = data.getUint16(at, true) + 1;
    } else {
      if (at >= data.byteLength) break;
      size = data.getUint8(at) + 1;
    }
    if (sprm === sprmPOutLvl && at < data.byteLength) outline = data.getUint8(at);
    at += size;
  }
  return outline;
}

/** The main-document text stored at file offsets [fcStart, fcEnd), with its first character position. */
function textOfFcRange(
  wordDocument: Uint8Array,
  pieces: Piece[],
  fcStart: number,
  fcEnd: number,
  ccpText: number,
): { text: string; cp: number } | undefined {
  let text = '';
  let firstCp: number | undefined;
  for (const piece of pieces) {
    if (piece.cpStart >= ccpText) continue;
    const width = piece.compressed ? 1 : 2;
    const pieceFcEnd = piece.fcStart + (piece.cpEnd - piece.cpStart) * width;
    const from = Math.max(fcStart, piece.fcStart);
    const to = Math.min(fcEnd, pieceFcEnd);
    if (from >= to || to > wordDocument.length) continue;
    const cp = piece.cpStart + (from - piece.fcStart) / width;
    if (firstCp === undefined || cp < firstCp) firstCp = cp;
    const bytes = wordDocument.subarray(from, to);
    text += piece.compressed
      ? new TextDecoder('windows-1252').decode(bytes)
      : new TextDecoder('utf-16le').decode(bytes);
  }
  return firstCp === undefined ? undefined : { text, cp: firstCp };
}

/** Drops field instructions (0x13 … 0x14), keeps field results, and removes control characters. */
function cleanText(raw: string): string {
  let out = '';
  let depth = 0;
  let inInstruction = false;
  for (const char of raw) {
    const code = char.charCodeAt(0);
    if (code === 0x13) {
      depth++;
      inInstruction = true;
    } else if (code === 0x14) inInstruction = false;
    else if (code === 0x15) {
      depth = Math.max(0, depth - 1);
      inInstruction = false;
    } else if (!(inInstruction && depth > 0) && code >= 0x20) out += char;
    else if (code === 0x09 && !(inInstruction && depth > 0)) out += ' ';
  }
  return out.trim();
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
