import { errorMessages } from './messages.ts';

/**
 * Why a file could not be extracted:
 * - unsupported: not a .txt/.docx/.doc/.pdf by content (also RTF, Word 95, spreadsheets)
 * - too-large: over maxBytes, maxDecompressedBytes (zip bomb), maxPages, maxChars, or out of memory
 * - encrypted: a password-protected .docx (OLE EncryptedPackage), .doc or PDF
 * - scanned: a PDF with pages but no text layer
 * - broken: malformed or truncated
 * - timeout: parsing took longer than timeoutMs and was stopped
 * - empty: parsed fine but holds no text
 * - busy: every extraction worker is taken and the queue is full, or none came free in time
 * - aborted: the caller's signal fired (its client went away); the parsing was stopped
 */
export type ExtractErrorKind =
  | 'unsupported'
  | 'too-large'
  | 'encrypted'
  | 'scanned'
  | 'broken'
  | 'timeout'
  | 'empty'
  | 'busy'
  | 'aborted';

const kinds: ReadonlySet<string> = new Set(Object.keys(errorMessages));

/** Typed extraction failure; `message` is Chinese and can be shown to the user as is. */
export class ExtractError extends Error {
  override readonly name = 'ExtractError';
  readonly kind: ExtractErrorKind;

  constructor(kind: ExtractErrorKind, message: string = errorMessages[kind], options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

export function isExtractErrorKind(value: unknown): value is ExtractErrorKind {
  return typeof value === 'string' && kinds.has(value);
}
