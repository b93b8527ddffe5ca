// word-extractor ships no types; this covers the part extraction uses.
declare module 'word-extractor' {
  interface TextOptions {
    /** Default true: turns curly quotes into ASCII ones. Extraction passes false to keep “”. */
    filterUnicode?: boolean;
  }
  class WordDocument {
    getBody(options?: TextOptions): string;
    getFootnotes(options?: TextOptions): string;
    getEndnotes(options?: TextOptions): string;
    getTextboxes(
      options?: TextOptions & { includeHeadersAndFooters?: boolean; includeBody?: boolean },
    ): string;
  }
  export default class WordExtractor {
    extract(source: string | Uint8Array): Promise<WordDocument>;
  }
}
