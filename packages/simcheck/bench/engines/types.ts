/** What the benchmark needs from an engine: the CLI contract's output, plus optional extra figures. */

export type MatchKind = 'verbatim' | 'paraphrase' | 'quoted';

export interface CheckMatch {
  start: number;
  end: number;
  sourceId: string;
  sourceStart: number;
  sourceEnd: number;
  kind: MatchKind;
}

export interface CheckOutput {
  chars: number;
  copiedChars: number;
  ratio: number;
  /** 去除引用文献复制比 when the engine reports it */
  ratioExcludingQuotes?: number;
  matches: CheckMatch[];
  sections?: Array<{ title: string; start: number; end: number; ratio: number }>;
}

export interface Checker {
  check(text: string): Promise<CheckOutput>;
  close(): Promise<void>;
}

export interface BenchEngine {
  readonly name: string;
  /** Index a library.jsonl ({id,title,text} per line) into indexDir. */
  build(libraryPath: string, indexDir: string): Promise<void>;
  open(indexDir: string): Promise<Checker>;
}
