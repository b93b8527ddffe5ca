import type { DocumentFormat, ExtractedDocument, ExtractLimits } from './types.ts';

/**
 * Runs the parser for a sniffed format, in whatever thread calls it (normally the extraction
 * worker). Parsers load lazily so that a .docx does not pay for loading pdfjs.
 */
export async function parseDocument(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<ExtractedDocument> {
  switch (format) {
    case 'txt':
      return (await import('./txt.ts')).extractTxt(bytes, limits.maxChars);
    case 'docx':
      // An encrypted .docx is an OLE container, not a zip: the OLE path says 'encrypted'.
      if ((await import('./ole.ts')).isOle(bytes))
        return (await import('./doc.ts')).extractDoc(bytes, limits);
      return (await import('./docx.ts')).extractDocx(bytes, limits);
    case 'doc':
      return (await import('./doc.ts')).extractDoc(bytes, limits);
    case 'pdf':
      return (await import('./pdf.ts')).extractPdf(bytes, limits);
  }
}
