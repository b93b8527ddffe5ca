/** The formats extraction understands, decided by content (see sniffFormat). */
export type DocumentFormat = 'txt' | 'docx' | 'doc' | 'pdf';

/** Limits that bound one extraction. Every field is a hard stop, not a hint. */
export interface ExtractLimits {
  /** Largest accepted input, in bytes; checked before any parsing. */
  maxBytes: number;
  /**
   * Most bytes inflated from a .docx zip (summed over the parts read) or from a PDF's streams (summed
   * over every stream's filter chain, checked before parsing); a decompression bomb stops here.
   */
  maxDecompressedBytes: number;
  /** Most pages of a PDF. */
  maxPages: number;
  /** Wall-clock limit for the whole extraction; the parsing worker is terminated when it passes. */
  timeoutMs: number;
  /** Most characters (UTF-16 code units) of extracted text. */
  maxChars: number;
}

/** A heading found from paragraph styles or outline levels: a whole line of `text`. */
export interface ExtractedHeading {
  /** UTF-16 offset of the heading's first character in ExtractedDocument.text. */
  start: number;
  /** UTF-16 offset just past the heading's last character (end exclusive, before the '\n'). */
  end: number;
  /** 1 for a chapter (Heading 1 / 标题 1 / outline level 1), 2 for a section, … up to 9. */
  level: number;
  text: string;
}

export interface ExtractedDocument {
  /**
   * Plain text: paragraphs separated by '\n', each heading on its own line, table cells separated
   * by '\t' and rows by '\n', footnotes and endnotes after the body under a line '注释'.
   */
  text: string;
  format: DocumentFormat;
  /** In document order, from paragraph styles and outline levels (.docx, .doc). Empty for .txt and .pdf. */
  headings: ExtractedHeading[];
  /** UTF-16 offset of the '注释' line that starts the footnotes/endnotes; absent when there are none. */
  footnotesStart?: number;
  /** Page count, for PDF. */
  pages?: number;
  /** Things a reader of the report may want to know (in Chinese), e.g. the encoding guessed. */
  warnings: string[];
}
