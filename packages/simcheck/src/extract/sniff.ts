import { isWordPackage } from './docx.ts';
import { classifyOle, isOle, readOle } from './ole.ts';
import { looksLikeText } from './txt.ts';
import type { DocumentFormat } from './types.ts';
import { isZip, readZipDirectory } from './zip.ts';

/**
 * Decides the format from content: %PDF, a zip holding word/document.xml, an OLE file holding a
 * Word stream (or an encrypted Office package), or bytes that decode as text. The file name is only
 * a hint, used when content is ambiguous (a damaged container, an encrypted package). Returns null
 * for anything else (images, spreadsheets, RTF, archives).
 */
export function sniffFormat(bytes: Uint8Array, fileName?: string): DocumentFormat | null {
  const hint = extensionOf(fileName);
  if (bytes.length === 0) return null;
  if (hasPdfHeader(bytes)) return 'pdf';
  if (isZip(bytes)) {
    try {
      return isWordPackage(readZipDirectory(bytes, Number.POSITIVE_INFINITY)) ? 'docx' : null;
    } catch {
      return hint === 'docx' ? 'docx' : null;
    }
  }
  if (isOle(bytes)) {
    try {
      const kind = classifyOle(readOle(bytes));
      if (kind === 'word') return 'doc';
      if (kind === 'encrypted-package') return hint === 'doc' ? 'doc' : 'docx';
      return null;
    } catch {
      return hint === 'doc' || hint === 'docx' ? hint : null;
    }
  }
  if (isRtf(bytes)) return null;
  if (looksLikeText(bytes)) return 'txt';
  return null;
}

export function isRtf(bytes: Uint8Array): boolean {
  return (
    bytes[0] === 0x7b && bytes[1] === 0x5c && bytes[2] === 0x72 && bytes[3] === 0x74 && bytes[4] === 0x66
  ); // {\rtf
}

/** PDF readers accept '%PDF-' anywhere in the first 1024 bytes (after junk some producers add); so do we. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  const limit = Math.min(bytes.length - 5, 1024);
  for (let at = 0; at < limit; at++) {
    if (
      bytes[at] === 0x25 &&
      bytes[at + 1] === 0x50 &&
      bytes[at + 2] === 0x44 &&
      bytes[at + 3] === 0x46 &&
      bytes[at + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

function extensionOf(fileName: string | undefined): string | undefined {
  const match = fileName ? /\.([a-z0-9]+)$/i.exec(fileName.trim()) : null;
  return match?.[1]?.toLowerCase();
}
