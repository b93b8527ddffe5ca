/**
 * Shared types: the library record, the index interface both backends implement, and the report.
 */

/** A library record as read from the corpus (JSON lines `{id, title, text}`). */
export type LibraryDocument = {
  readonly id: string;
  readonly title?: string | null;
  readonly text: string;
};

/** A stored document with its internal number (assigned by the index, increasing, never reused). */
export type StoredDocument = {
  readonly docNo: number;
  readonly id: string;
  readonly title: string | null;
  readonly text: string;
};

/** Fingerprint parameters an index was built with; a check always fingerprints with these. */
export type IndexParams = {
  readonly k: number;
  readonly minRun: number;
};

/**
 * Postings for a set of hashes, grouped by hash (all postings of one hash are contiguous) and,
 * within a hash, ordered by docNo then position. Removed documents are never returned.
 */
export type Postings = {
  readonly hashes: Uint32Array;
  readonly docNos: Uint32Array;
  readonly positions: Uint32Array;
  /** With `maxPostings`: the hashes left out for having more postings than that, ascending. */
  readonly frequent?: Uint32Array;
};

export type LookupOptions = {
  /**
   * Leave out the postings of hashes that have more than this many (stock phrases of a large
   * library: thousands of postings that say little about which document was copied); they are
   * listed in `frequent` instead.
   */
  readonly maxPostings?: number;
  /** Only the postings of these documents. */
  readonly docNos?: readonly number[];
};

export type IndexStats = {
  readonly documents: number;
  readonly fingerprints: number;
  readonly characters: number;
  readonly removed: number;
  readonly params: IndexParams;
  /** Backend specific details (segments, bytes on disk ...). */
  readonly details: Readonly<Record<string, number | string>>;
};

export type AddProgress = { readonly documents: number; readonly characters: number };

export type AddResult = {
  readonly added: number;
  /** Documents whose id already existed: the old version was removed and the new one added. */
  readonly replaced: number;
  readonly skipped: number;
};

/**
 * One similarity index, two backends (local on-disk, PostgreSQL). Both return identical results
 * for the same sequence of operations.
 */
export interface Index {
  readonly backend: 'local' | 'postgres';
  readonly params: IndexParams;
  /** Add documents (incremental). A document whose id exists replaces the old version. */
  addDocuments(
    docs: Iterable<LibraryDocument> | AsyncIterable<LibraryDocument>,
    options?: { onProgress?: (p: AddProgress) => void },
  ): Promise<AddResult>;
  /** Remove a document by id; resolves false when it is not in the index. */
  removeDocument(id: string): Promise<boolean>;
  stats(): Promise<IndexStats>;
  /** Candidate lookup: postings of the given fingerprint hashes (see {@link Postings}). */
  lookup(hashes: Uint32Array, options?: LookupOptions): Promise<Postings>;
  /** Stored documents by number, in the order asked (unknown or removed numbers are left out). */
  getDocuments(docNos: readonly number[]): Promise<StoredDocument[]>;
  close(): Promise<void>;
}

export type MatchKind = 'verbatim' | 'paraphrase' | 'quoted';

/**
 * One reported passage. Offsets and counts are in the report's units (`Options.units`): Unicode code
 * points by default, UTF-16 offsets and 字数 (whitespace not counted) with `'product'`; end exclusive.
 */
export type Match = {
  /** Range in the checked text. */
  readonly start: number;
  readonly end: number;
  readonly sourceId: string;
  readonly sourceTitle: string | null;
  /** Range in the source record's `text`. */
  readonly sourceStart: number;
  readonly sourceEnd: number;
  readonly kind: MatchKind;
  /** Characters of the range. */
  readonly chars: number;
  /** Index into `Report.sections` of the section the match starts in. */
  readonly section: number;
};

export type SectionReport = {
  readonly title: string;
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  readonly chars: number;
  /** Characters covered by any match (verbatim, paraphrase or quoted). */
  readonly copiedChars: number;
  readonly quotedChars: number;
  /** copiedChars / chars (文字复制比 of the section). */
  readonly ratio: number;
  /** (copiedChars - quotedChars) / chars (去除引用文献复制比 of the section). */
  readonly ratioExcludingQuotes: number;
};

export type SourceReport = {
  readonly sourceId: string;
  readonly title: string | null;
  /** Characters of the checked text matched to this source. */
  readonly copiedChars: number;
  /** copiedChars / total characters (this source's 文字复制比). */
  readonly ratio: number;
  /** Share of all copied characters that come from this source. */
  readonly share: number;
  readonly matches: number;
};

export type Report = {
  /** 总字数: characters of the checked text (code points, or 字数 in `'product'` units). */
  readonly chars: number;
  /** 重复字数: characters covered by matches (verbatim, paraphrase and quoted; never the reference list). */
  readonly copiedChars: number;
  /** 总文字复制比 = copiedChars / chars. */
  readonly ratio: number;
  /** Characters in matches typed quoted (cited quotations). */
  readonly quotedChars: number;
  /** 去除引用文献复制比 = (copiedChars - quotedChars) / chars. */
  readonly ratioExcludingQuotes: number;
  /** 单篇最大文字复制比: the largest single source's copied characters / chars. */
  readonly maxSingleSourceRatio: number;
  readonly maxSingleSourceId: string | null;
  /** Characters of the reference list(s), which are not checked. */
  readonly referenceChars: number;
  readonly matches: readonly Match[];
  readonly sections: readonly SectionReport[];
  /** Sources by copied characters, largest first. */
  readonly sources: readonly SourceReport[];
};
