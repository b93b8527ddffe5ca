import type * as CFB from 'cfb';
import WordExtractor from 'word-extractor';
import { type DocHeading, readDocHeadings } from './doc-headings.ts';
import { ExtractError } from './errors.ts';
import { detailMessages } from './messages.ts';
import { classifyOle, readOle, readOleStream } from './ole.ts';
import { TextBuilder } from './text-builder.ts';
import type { ExtractedDocument, ExtractLimits } from './types.ts';

/**
 * Legacy Word 97–2003 .doc: the OLE container is checked here (encrypted package, Word's own
 * encryption flag, Word 95), then word-extractor reads the text through the piece table.
 * Tables come out with Word's cell marks (one per cell, one more per row) as tabs; rows are
 * rebuilt from them. Headings come from our own reading of the style sheet (doc-headings.ts);
 * list labels ("第1章") that Word draws from list definitions are not in the text.
 */

const fibIdentifier = 0xa5ec;
/** nFib of Word 97 and later; Word 6.0/95 files have a smaller one and another text layout. */
const firstWord97Nfib = 0x00c1;

export async function extractDoc(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  const container = readOle(bytes);
  const kind = classifyOle(container);
  if (kind === 'encrypted-package') throw new ExtractError('encrypted');
  if (kind === 'other-office') throw new ExtractError('unsupported', detailMessages.otherOffice);
  if (kind !== 'word')
    throw new ExtractError('broken', undefined, { cause: new Error('doc: no WordDocument stream') });
  const wordDocument = readOleStream(container, 'WordDocument');
  checkFib(wordDocument);

  let document: Awaited<ReturnType<WordExtractor['extract']>>;
  try {
    document = await new WordExtractor().extract(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
  } catch (error) {
    throw new ExtractError('broken', undefined, { cause: error });
  }
  const options = { filterUnicode: false };
  const builder = new TextBuilder(limits.maxChars);
  const lines = splitDocLines(document.getBody(options));
  const levels = matchHeadings(lines, findHeadings(container, wordDocument));
  for (const [index, line] of lines.entries()) builder.addLine(line, levels.get(index));
  // Each note starts where its reference mark was, which word-extractor leaves as a space.
  const notes = [
    ...splitDocLines(document.getFootnotes(options)),
    ...splitDocLines(document.getEndnotes(options)),
  ].map((line) => line.trim());
  if (notes.length > 0) {
    builder.startFootnotes();
    for (const line of notes) builder.addLine(line);
  }
  return {
    text: builder.toString(),
    format: 'doc',
    headings: builder.headings,
    ...(builder.footnotesStart === undefined ? {} : { footnotesStart: builder.footnotesStart }),
    warnings: [],
  };
}

function findHeadings(container: CFB.CFB$Container, wordDocument: Uint8Array): DocHeading[] {
  try {
    const flags = new DataView(
      wordDocument.buffer,
      wordDocument.byteOffset,
      wordDocument.byteLength,
    ).getUint16(0x0a, true);
    // FibBase.fWhichTblStm says which of the two table streams is the live one.
    const table = readOleStream(container, flags & 0x0200 ? '1Table' : '0Table');
    return table ? readDocHeadings(wordDocument, table) : [];
  } catch {
    return []; // headings are a bonus: a style sheet we cannot read must not fail the file
  }
}

/** Line index -> heading level, matching heading paragraphs to lines in order. */
function matchHeadings(lines: readonly string[], headings: readonly DocHeading[]): Map<number, number> {
  const levels = new Map<number, number>();
  let next = 0;
  for (const heading of headings) {
    for (let index = next; index < lines.length; index++) {
      if (lines[index]!.replace(/\t/g, ' ').trim() === heading.text) {
        levels.set(index, heading.level);
        next = index + 1;
        break;
      }
    }
  }
  return levels;
}

function checkFib(wordDocument: Uint8Array | undefined): asserts wordDocument is Uint8Array {
  if (!wordDocument || wordDocument.length < 32) {
    throw new ExtractError('broken', undefined, { cause: new Error('doc: WordDocument stream too short') });
  }
  const view = new DataView(wordDocument.buffer, wordDocument.byteOffset, wordDocument.byteLength);
  if (view.getUint16(0, true) !== fibIdentifier) {
    throw new ExtractError('broken', undefined, { cause: new Error('doc: bad FIB identifier') });
  }
  if (view.getUint16(2, true) < firstWord97Nfib) throw new ExtractError('unsupported', detailMessages.word95);
  const flags = view.getUint16(0x0a, true);
  // FibBase.fEncrypted (bit 8) covers both RC4 encryption and XOR obfuscation (fObfuscated, bit 15).
  if (flags & 0x0100) throw new ExtractError('encrypted');
}

/**
 * Splits word-extractor output into lines: paragraphs end in '\n'; in a table every cell ends in
 * a tab and every row in one more, so "a\tb\t\t" is the row "a\tb".
 */
export function splitDocLines(raw: string): string[] {
  const lines: string[] = [];
  for (const paragraph of raw.replace(/\r\n?/g, '\n').split('\n')) {
    if (paragraph.trim() === '') continue;
    if (!paragraph.includes('\t\t')) {
      lines.push(paragraph.replace(/\t$/, ''));
      continue;
    }
    for (const row of paragraph.split(/\t\t/)) {
      if (row.trim() !== '') lines.push(row.replace(/\t$/, ''));
    }
  }
  return lines;
}
