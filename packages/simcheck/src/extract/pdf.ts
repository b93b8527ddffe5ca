import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ExtractError } from './errors.ts';
import { detailMessages } from './messages.ts';
import { assertPdfInflationWithin } from './pdf-inflation.ts';
import { TextBuilder } from './text-builder.ts';
import type { ExtractedDocument, ExtractLimits } from './types.ts';

/**
 * PDF text-layer extraction with pdfjs-dist (legacy build, which runs in Node). Text items are
 * joined into lines by their baseline: a new line starts at pdfjs's end-of-line mark or when the
 * baseline moves by more than half the font size. Characters are kept raw (spaces between CJK
 * characters and lines broken mid-sentence are the normaliser's business). Pages are separated
 * by a single '\n'. Runs inside the extraction worker, which the caller terminates on timeout.
 */

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

interface TextItemLike {
  str: string;
  transform: number[];
  height: number;
  hasEOL: boolean;
}

export async function extractPdf(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  // Before pdfjs, which inflates whatever it meets: a decompression bomb stops here.
  assertPdfInflationWithin(bytes, limits.maxDecompressedBytes);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdfjs takes ownership of (and may detach) the buffer it is given: hand it a copy.
  const task = pdfjs.getDocument({
    data: Uint8Array.prototype.slice.call(bytes),
    cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    throw classifyPdfError(error);
  }
  try {
    const warnings: string[] = [];
    const pages = document.numPages;
    if (pages > limits.maxPages)
      throw new ExtractError('too-large', detailMessages.tooManyPages(limits.maxPages));
    if ((await document.getPermissions()) !== null) warnings.push(detailMessages.pdfPermissions);
    if (!hasEndOfFile(bytes)) warnings.push(detailMessages.pdfNotComplete);

    const builder = new TextBuilder(limits.maxChars);
    let hasText = false;
    for (let number = 1; number <= pages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      for (const line of joinLines(content.items as TextItemLike[])) {
        if (line.trim() === '') continue;
        hasText = true;
        builder.addLine(line);
      }
      page.cleanup();
    }
    if (!hasText) {
      // A file that lost its end usually lost pages too: call it broken rather than scanned.
      throw hasEndOfFile(bytes) ? new ExtractError('scanned') : new ExtractError('broken');
    }
    return { text: builder.toString(), format: 'pdf', headings: [], pages, warnings };
  } catch (error) {
    throw error instanceof ExtractError ? error : classifyPdfError(error);
  } finally {
    await document.destroy().catch(() => {});
  }
}

/** Joins pdfjs text items (in content-stream order) into lines. */
export function joinLines(items: readonly TextItemLike[]): string[] {
  const lines: string[] = [];
  let current: { parts: { x: number; str: string }[]; y: number; size: number } | undefined;
  let breakAfter = false;
  const flush = () => {
    if (!current) return;
    // Most producers write left to right; a line drawn out of order is put back in x order.
    const parts = current.parts;
    const ordered = parts.every((part, i) => i === 0 || part.x >= parts[i - 1]!.x - 0.5)
      ? parts
      : [...parts].sort((a, b) => a.x - b.x);
    lines.push(ordered.map((part) => part.str).join(''));
    current = undefined;
  };
  for (const item of items) {
    if (typeof item.str !== 'string') continue; // marked-content markers
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const size = Math.abs(item.height) || Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || 1;
    if (item.str !== '') {
      const sameLine = current && !breakAfter && Math.abs(y - current.y) <= Math.max(size, current.size) / 2;
      if (!sameLine) {
        flush();
        current = { parts: [], y, size };
      }
      current!.parts.push({ x, str: item.str });
    }
    breakAfter = item.hasEOL;
  }
  flush();
  return lines;
}

function classifyPdfError(error: unknown): ExtractError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return new ExtractError('encrypted', undefined, { cause: error });
  return new ExtractError('broken', undefined, { cause: error });
}

function hasEndOfFile(bytes: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 1024)));
  return tail.includes('%%EOF');
}
