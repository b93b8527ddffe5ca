/**
 * Deterministic PAN-style test set for the Chinese similarity engine, built from ../shared/data.
 *
 * The CSL corpus is split (seeded) into a LIBRARY (indexed; written as library.jsonl {id,title,text})
 * and held-out records that supply the suspicious documents' own writing. Each suspicious document is
 * thesis-like (title, 摘要 + 关键词, 第N章 chapters with N.M sections, 参考文献, 致谢), 8,000–30,000
 * code points, and carries planted reuse of known offsets. Documents have one case type each (PAN's
 * sub-corpus design, so precision can be attributed per type) except the `mixed` theses.
 *
 * Filler sentences that share a 13-character window with any library record (after NFKC, lower
 * case and whitespace removal) are discarded, and every finished document is checked again window
 * by window: "leaks" (library windows outside the planted cases) are counted and reported.
 *
 * One file of ~750 lines on purpose: the test set is one seeded sequence of draws (split, fillers,
 * planted cases, obfuscations); kept together, the order of the draws — and so every generated
 * document, which the benchmark's recorded figures depend on — stays easy to keep unchanged.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CorpusRecord, type LibraryRecord, LineWriter, loadCorpus } from './lib/io.ts';
import {
  asciiAlnumCount,
  fullWidth,
  loadSynonyms,
  pdfBreak,
  reorderSentences,
  type SynonymTable,
  substituteSynonyms,
  traditional,
} from './lib/obfuscate.ts';
import { createRng, type Rng } from './lib/prng.ts';
import { cpLength, filterNormalise, splitSentences, WINDOW, windowHash } from './lib/text.ts';

export const GEN_VERSION = 2;

export const PLAGIARISM_TYPES = [
  'verbatim',
  'synonym',
  'reorder',
  'traditional',
  'fullwidth',
  'pdfbreak',
  'patchwork',
] as const;
export type PlagiarismType = (typeof PLAGIARISM_TYPES)[number];
export type CaseType = PlagiarismType | 'quoted';
export const DOC_TYPES = [...PLAGIARISM_TYPES, 'quoted', 'short', 'clean', 'mixed'] as const;
export type DocType = (typeof DOC_TYPES)[number];

export interface PlantedCase {
  type: CaseType;
  /** code-point offsets in the suspicious document, end exclusive */
  start: number;
  end: number;
  sourceId: string;
  /** code-point offsets in the library record's text */
  sourceStart: number;
  sourceEnd: number;
}

/** A copied run shorter than 13 characters: must never count. */
export interface ShortOverlap {
  start: number;
  end: number;
  sourceId: string;
  sourceStart: number;
  sourceEnd: number;
}

export interface TruthDoc {
  id: string;
  file: string;
  type: DocType;
  chars: number;
  cases: PlantedCase[];
  shortOverlaps: ShortOverlap[];
  /** the 参考文献 list (heading to last entry) */
  references: { start: number; end: number };
  sections: Array<{ title: string; start: number }>;
  /** union of the suspicious ranges of plagiarism (non-quoted) cases */
  plagiarismChars: number;
  quotedChars: number;
  /** characters of library windows found outside any planted case (should be 0) */
  leakChars: number;
  leaks: Array<readonly [number, number]>;
}

export interface TestSet {
  version: number;
  seed: number;
  mode: 'quick' | 'full';
  dir: string;
  libraryPath: string;
  libraryRecords: number;
  libraryChars: number;
  /** the whole staged corpus as library JSON lines (for the speed benchmark) */
  corpusPath: string;
  corpusRecords: number;
  corpusChars: number;
  /** id of the 30,000-character mixed thesis used for speed */
  speedThesis: string;
  docs: TruthDoc[];
  synonymStats: { words: number; replaced: number };
}

export interface GenerateOptions {
  seed: number;
  quick: boolean;
  /** root for generated files; default /work/main/.bench */
  outRoot: string;
  log?: (msg: string) => void;
}

const LIBRARY_SHARE = 0.85;

export function recordId(r: CorpusRecord): string {
  return `csl-${r.id}`;
}

function toLibrary(r: CorpusRecord): LibraryRecord {
  return { id: recordId(r), title: r.title ?? '', text: r.abstract };
}

/** Library windows: hash → index of the only record holding it, or -1 when several do. */
type WindowMap = Map<number, number>;

function normalisedCps(text: string): number[] {
  return Array.from(filterNormalise(text), (c) => c.codePointAt(0)!);
}

function buildWindowMap(records: LibraryRecord[]): WindowMap {
  const map: WindowMap = new Map();
  records.forEach((r, idx) => {
    const cps = normalisedCps(r.text);
    for (let i = 0; i + WINDOW <= cps.length; i++) {
      const h = windowHash(cps, i);
      const prev = map.get(h);
      if (prev === undefined) map.set(h, idx);
      else if (prev !== idx) map.set(h, -1);
    }
  });
  return map;
}

function sharesWindow(text: string, map: WindowMap): boolean {
  const cps = normalisedCps(text);
  for (let i = 0; i + WINDOW <= cps.length; i++) if (map.has(windowHash(cps, i))) return true;
  return false;
}

/** What can precede a sentence in a document (whitespace is normalised away). */
const BEFORE = Array.from('。.；;！？]，,：');

/** A filler sentence is safe when neither it nor the window reaching one character before it hits the library. */
function sentenceLeaks(text: string, map: WindowMap): boolean {
  if (sharesWindow(text, map)) return true;
  const cps = normalisedCps(text);
  if (cps.length < WINDOW - 1) return false;
  for (const p of BEFORE) {
    if (map.has(windowHash([p.codePointAt(0)!, ...cps.slice(0, WINDOW - 1)], 0))) return true;
  }
  return false;
}

/** Every window of the passage belongs to `idx` alone (so the true source is unambiguous). */
function uniqueToRecord(text: string, idx: number, map: WindowMap): boolean {
  const cps = normalisedCps(text);
  for (let i = 0; i + WINDOW <= cps.length; i++) if (map.get(windowHash(cps, i)) !== idx) return false;
  return true;
}

interface Passage {
  recordIdx: number;
  sourceId: string;
  text: string;
  sourceStart: number;
  sourceEnd: number;
}

const SURNAMES = Array.from(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈',
);
const GIVEN = Array.from(
  '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建文辉力宁波晨雪婷宇浩然欣怡子轩梓涵',
);
const JOURNALS = [
  '计算机学报',
  '软件学报',
  '中国科学',
  '自动化学报',
  '电子学报',
  '管理世界',
  '经济研究',
  '教育研究',
  '中国农业科学',
  '机械工程学报',
  '系统工程理论与实践',
  '情报学报',
];
const CHAPTER_FIRST = '绪论';
const CHAPTER_LAST = '总结与展望';
const CHAPTER_MIDDLE = [
  '相关理论与技术基础',
  '研究设计与方法',
  '模型构建与实现',
  '实验结果与分析',
  '案例研究',
  '系统设计与实现',
];
const SECTION_NAMES = [
  '研究背景',
  '研究意义',
  '国内外研究现状',
  '研究内容',
  '论文组织结构',
  '基本概念',
  '理论基础',
  '关键技术',
  '方法概述',
  '数据来源',
  '模型设计',
  '算法流程',
  '实验设置',
  '结果分析',
  '对比实验',
  '讨论',
  '本章小结',
];
const QUOTE_INTROS = [
  '正如已有研究指出的，',
  '有学者认为，',
  '文献中明确写道：',
  '相关研究表明，',
  '已有文献指出：',
  '',
];
const QUOTE_MARKS: Array<readonly [string, string]> = [
  ['“', '”'],
  ['“', '”'],
  ['“', '”'],
  ['「', '」'],
  ['『', '』'],
];

class DocBuilder {
  private readonly parts: string[] = [];
  pos = 0;
  readonly cases: PlantedCase[] = [];
  readonly shortOverlaps: ShortOverlap[] = [];
  readonly sections: Array<{ title: string; start: number }> = [];
  add(text: string): number {
    const start = this.pos;
    this.parts.push(text);
    this.pos += cpLength(text);
    return start;
  }
  text(): string {
    return this.parts.join('');
  }
}

/** One planted unit of a document: emits its text into the builder, recording cases as it goes. */
type Unit = (doc: DocBuilder, cite: (title: string) => number) => void;

class Generator {
  private readonly fillerSentences: string[];
  private readonly heldTitles: string[];
  private readonly heldKeywords: string[];
  synonymWords = 0;
  synonymReplaced = 0;

  private readonly library: LibraryRecord[];
  private readonly map: WindowMap;
  private readonly synonyms: SynonymTable;

  constructor(library: LibraryRecord[], map: WindowMap, held: CorpusRecord[], synonyms: SynonymTable) {
    this.library = library;
    this.map = map;
    this.synonyms = synonyms;
    const sentences: string[] = [];
    for (const r of held) {
      for (const s of splitSentences(r.abstract)) {
        const t = s.trim();
        const n = cpLength(t);
        if (n < 8 || n > 220) continue;
        if (/[“”「」『』[\]]/u.test(t)) continue;
        if (sentenceLeaks(t, map)) continue;
        sentences.push(t);
      }
    }
    this.fillerSentences = sentences;
    this.heldTitles = held.map((r) => r.title).filter((t): t is string => !!t && !sharesWindow(t, map));
    this.heldKeywords = [...new Set(held.flatMap((r) => r.keywords ?? []))];
  }

  get fillerCount(): number {
    return this.fillerSentences.length;
  }

  private filler(rng: Rng): () => string {
    const order = this.fillerSentences.map((_, i) => i);
    rng.shuffle(order);
    let k = 0;
    return () => {
      const s = this.fillerSentences[order[k % order.length]!]!;
      k++;
      return s;
    };
  }

  private pickPassage(
    rng: Rng,
    used: Set<number>,
    minLen: number,
    maxLen: number,
    accept: (text: string) => boolean = () => true,
  ): Passage {
    for (let attempt = 0; attempt < 5000; attempt++) {
      const idx = rng.int(0, this.library.length - 1);
      if (used.has(idx)) continue;
      const rec = this.library[idx]!;
      const sentences = splitSentences(rec.text);
      const first = rng.int(0, sentences.length - 1);
      let offset = 0;
      for (let i = 0; i < first; i++) offset += cpLength(sentences[i]!);
      let text = '';
      for (let i = first; i < sentences.length && cpLength(text) < minLen; i++) text += sentences[i];
      // trim surrounding whitespace, keeping offsets right
      const lead = cpLength(text) - cpLength(text.trimStart());
      text = text.trim();
      const len = cpLength(text);
      if (len < minLen || len > maxLen) continue;
      if (!uniqueToRecord(text, idx, this.map)) continue;
      if (!accept(text)) continue;
      used.add(idx);
      const sourceStart = offset + lead;
      return { recordIdx: idx, sourceId: rec.id, text, sourceStart, sourceEnd: sourceStart + len };
    }
    throw new Error(`no library passage of ${minLen}-${maxLen} characters found`);
  }

  private plain(type: PlagiarismType, p: Passage, text: string): Unit {
    return (doc) => {
      const start = doc.add(text);
      doc.cases.push({
        type,
        start,
        end: doc.pos,
        sourceId: p.sourceId,
        sourceStart: p.sourceStart,
        sourceEnd: p.sourceEnd,
      });
    };
  }

  /** A planted unit of the given type (one case, or several for patchwork). */
  unit(type: CaseType | 'short', rng: Rng, used: Set<number>, nextFiller: () => string): Unit {
    switch (type) {
      case 'verbatim': {
        const p = this.pickPassage(rng, used, rng.int(40, 400), 650);
        return this.plain(type, p, p.text);
      }
      case 'synonym': {
        for (let attempt = 0; attempt < 50; attempt++) {
          const p = this.pickPassage(rng, used, rng.int(60, 350), 600);
          const r = substituteSynonyms(p.text, rng, this.synonyms, 0.8);
          if (r.replaced >= 3 && r.replaced >= 0.2 * r.words) {
            this.synonymWords += r.words;
            this.synonymReplaced += r.replaced;
            return this.plain(type, p, r.text);
          }
          used.delete(p.recordIdx);
        }
        throw new Error('no passage with enough synonyms');
      }
      case 'reorder': {
        const p = this.pickPassage(rng, used, rng.int(100, 400), 650, (t) => splitSentences(t).length >= 3);
        return this.plain(type, p, reorderSentences(p.text, rng) ?? p.text);
      }
      case 'traditional': {
        const p = this.pickPassage(rng, used, rng.int(40, 400), 650, (t) => traditional(t) !== t);
        return this.plain(type, p, traditional(p.text));
      }
      case 'fullwidth': {
        const p = this.pickPassage(rng, used, rng.int(40, 400), 650, (t) => asciiAlnumCount(t) >= 6);
        return this.plain(type, p, fullWidth(p.text));
      }
      case 'pdfbreak': {
        const p = this.pickPassage(rng, used, rng.int(60, 400), 650);
        return this.plain(type, p, pdfBreak(p.text, rng));
      }
      case 'patchwork': {
        const pieces = Array.from({ length: rng.int(2, 4) }, () =>
          this.pickPassage(rng, used, rng.int(20, 90), 160),
        );
        return (doc) => {
          for (const p of pieces) this.plain('patchwork', p, p.text)(doc, () => 0);
        };
      }
      case 'quoted': {
        const p = this.pickPassage(rng, used, rng.int(15, 100), 160, (t) => splitSentences(t).length === 1);
        // drop the sentence terminator: the quotation ends before it
        const body = Array.from(p.text);
        const last = body[body.length - 1]!;
        if (/[。．.！!？?；;]/u.test(last)) body.pop();
        const quoted = body.join('');
        const [open, close] = rng.pick(QUOTE_MARKS);
        const intro = rng.pick(QUOTE_INTROS);
        const title = this.library[p.recordIdx]!.title || rng.pick(this.heldTitles);
        return (doc, cite) => {
          doc.add(`${intro}${open}`);
          const start = doc.add(quoted);
          doc.add(`${close}[${cite(title)}]。`);
          doc.cases.push({
            type: 'quoted',
            start,
            end: start + cpLength(quoted),
            sourceId: p.sourceId,
            sourceStart: p.sourceStart,
            sourceEnd: p.sourceStart + cpLength(quoted),
          });
        };
      }
      case 'short': {
        // a 6–12 character run of a library record inside one of our own sentences
        for (let attempt = 0; attempt < 2000; attempt++) {
          const idx = rng.int(0, this.library.length - 1);
          const rec = this.library[idx]!;
          const chars = Array.from(rec.text);
          const len = rng.int(6, 12);
          if (chars.length < len + 2) continue;
          const from = rng.int(0, chars.length - len);
          const frag = chars.slice(from, from + len).join('');
          if (!/^[\u4e00-\u9fff]+$/u.test(frag)) continue;
          const host = Array.from(nextFiller());
          const at = rng.int(0, host.length - 1);
          const before = host.slice(0, at).join('');
          const after = host.slice(at).join('');
          if (sharesWindow(before + frag + after, this.map)) continue;
          return (doc) => {
            doc.add(before);
            const start = doc.add(frag);
            doc.add(after);
            doc.shortOverlaps.push({
              start,
              end: start + len,
              sourceId: rec.id,
              sourceStart: from,
              sourceEnd: from + len,
            });
          };
        }
        throw new Error('no short overlap found');
      }
    }
  }

  private reference(rng: Rng, n: number, title: string): string {
    const authors = Array.from(
      { length: rng.int(1, 3) },
      () => rng.pick(SURNAMES) + rng.pick(GIVEN) + (rng.chance(0.5) ? rng.pick(GIVEN) : ''),
    ).join(', ');
    const year = rng.int(2005, 2024);
    const p1 = rng.int(1, 180);
    return `[${n}] ${authors}. ${title}[J]. ${rng.pick(JOURNALS)}, ${year}, ${rng.int(10, 45)}(${rng.int(1, 12)}): ${p1}-${p1 + rng.int(4, 15)}.`;
  }

  document(id: string, type: DocType, target: number, rng: Rng): { text: string; truth: TruthDoc } {
    const nextFiller = this.filler(rng.fork('filler'));
    const used = new Set<number>();
    const units: Unit[] = [];
    const avgCase: Record<string, number> = { patchwork: 200, quoted: 70, short: 45 };
    const plan = (t: CaseType | 'short', count: number) => {
      for (let i = 0; i < count; i++) units.push(this.unit(t, rng, used, nextFiller));
    };
    if (type === 'mixed') {
      for (const t of PLAGIARISM_TYPES) plan(t, 2);
      plan('quoted', 3);
      plan('short', 4);
    } else if (type !== 'clean') {
      const share = type === 'short' ? 0.05 : type === 'quoted' ? 0.06 : rng.next() * 0.25 + 0.1;
      const count = Math.max(3, Math.round((target * share) / (avgCase[type] ?? 230)));
      plan(type, count);
    }
    rng.shuffle(units);

    const doc = new DocBuilder();
    const refs: string[] = [];
    const cite = (title: string): number => {
      refs.push(title);
      return refs.length;
    };
    for (let i = 0; i < rng.int(6, 14); i++) refs.push(rng.pick(this.heldTitles));

    // front matter
    doc.add(`${rng.pick(this.heldTitles)}\n\n`);
    doc.sections.push({ title: '摘要', start: doc.pos });
    doc.add('摘  要\n');
    let abs = '';
    for (let i = rng.int(4, 7); i > 0; i--) abs += nextFiller();
    doc.add(`${abs}\n`);
    const kws = Array.from({ length: rng.int(3, 5) }, () => rng.pick(this.heldKeywords));
    doc.add(`关键词：${kws.join('；')}\n\n`);

    // body: filler sentences with the units spread over them
    const tailEstimate = 70 * (refs.length + units.length) + 200;
    const bodyBudget = Math.max(2000, target - doc.pos - tailEstimate);
    const chapters = target < 12000 ? 4 : target < 20000 ? 5 : 6;
    const names = [CHAPTER_FIRST, ...rng.shuffle([...CHAPTER_MIDDLE]).slice(0, chapters - 2), CHAPTER_LAST];
    const sectionsPer = names.map(() => rng.int(2, 4));
    const totalSections = sectionsPer.reduce((a, b) => a + b, 0);
    const perSection = bodyBudget / totalSections;
    let unitIdx = 0;
    const bodyStart = doc.pos;
    let sectionNo = 0;
    for (let c = 0; c < chapters; c++) {
      const chapterTitle = `第${c + 1}章 ${names[c]}`;
      doc.sections.push({ title: chapterTitle, start: doc.pos });
      doc.add(`${chapterTitle}\n`);
      const secNames = rng.shuffle([...SECTION_NAMES]).slice(0, sectionsPer[c]);
      for (let s = 0; s < secNames.length; s++) {
        sectionNo++;
        const secTitle = `${c + 1}.${s + 1} ${secNames[s]}`;
        doc.sections.push({ title: secTitle, start: doc.pos });
        doc.add(`${secTitle}\n`);
        const sectionEnd = bodyStart + perSection * sectionNo;
        // units due by the end of this section, in proportion to the body written
        const dueBy = Math.round((units.length * sectionNo) / totalSections);
        let para = 0;
        while (doc.pos < sectionEnd || unitIdx < dueBy || para === 0) {
          const sentences = rng.int(2, 6);
          for (let k = 0; k < sentences; k++) {
            if (unitIdx < dueBy && rng.chance(0.35)) units[unitIdx++]!(doc, cite);
            doc.add(
              rng.chance(0.08) ? nextFiller().replace(/([。；.])$/u, `[${rng.int(1, 6)}]$1`) : nextFiller(),
            );
          }
          doc.add('\n');
          para++;
          if (doc.pos > sectionEnd + 3000) break;
        }
      }
    }
    while (unitIdx < units.length) {
      units[unitIdx++]!(doc, cite);
      doc.add(`${nextFiller()}\n`);
    }
    doc.add('\n');
    const refStart = doc.pos;
    doc.sections.push({ title: '参考文献', start: doc.pos });
    doc.add('参考文献\n');
    refs.forEach((t, i) => {
      doc.add(`${this.reference(rng, i + 1, t)}\n`);
    });
    const refEnd = doc.pos;
    doc.add('\n');
    doc.sections.push({ title: '致谢', start: doc.pos });
    doc.add('致  谢\n');
    doc.add(nextFiller());
    while (doc.pos < target) doc.add(nextFiller());
    doc.add('\n');

    const text = doc.text();
    const plag = doc.cases.filter((c) => c.type !== 'quoted').map((c) => [c.start, c.end] as const);
    const quoted = doc.cases.filter((c) => c.type === 'quoted').map((c) => [c.start, c.end] as const);
    const truth: TruthDoc = {
      id,
      file: `docs/${id}.txt`,
      type,
      chars: doc.pos,
      cases: doc.cases,
      shortOverlaps: doc.shortOverlaps,
      references: { start: refStart, end: refEnd },
      sections: doc.sections,
      plagiarismChars: unionLen(plag),
      quotedChars: unionLen(quoted),
      leakChars: 0,
      leaks: mergeRanges(this.leaks(text, doc.cases, doc.shortOverlaps)),
    };
    truth.leakChars = unionLen(truth.leaks);
    return { text, truth };
  }

  /**
   * Library windows outside the planted cases (characters), found after the same light normalisation
   * as the filter. Windows inside a short overlap would mean a run ≥ 13: that is a generator bug.
   */
  private leaks(
    text: string,
    cases: PlantedCase[],
    shorts: ShortOverlap[],
  ): Array<readonly [number, number]> {
    const orig: number[] = [];
    const cps: number[] = [];
    let i = 0;
    for (const ch of text) {
      const n = filterNormalise(ch);
      for (const c of n) {
        orig.push(i);
        cps.push(c.codePointAt(0)!);
      }
      i++;
    }
    const leaked: Array<readonly [number, number]> = [];
    for (let k = 0; k + WINDOW <= cps.length; k++) {
      if (!this.map.has(windowHash(cps, k))) continue;
      const a = orig[k]!;
      const b = orig[k + WINDOW - 1]! + 1;
      if (cases.some((c) => c.start < b && a < c.end)) continue;
      if (shorts.some((s) => s.start >= a && s.end <= b))
        throw new Error('a short overlap grew to 13 characters');
      leaked.push([a, b]);
    }
    return leaked;
  }
}

function mergeRanges(ranges: Array<readonly [number, number]>): Array<readonly [number, number]> {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function unionLen(ranges: Array<readonly [number, number]>): number {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  let total = 0;
  let s = -1;
  let e = -1;
  for (const [a, b] of sorted) {
    if (a > e) {
      if (e > s) total += e - s;
      s = a;
      e = b;
    } else if (b > e) e = b;
  }
  if (e > s) total += e - s;
  return total;
}

export function docsPerType(quick: boolean): Record<DocType, number> {
  const n = quick ? 2 : 6;
  const out = {} as Record<DocType, number>;
  for (const t of DOC_TYPES) out[t] = n;
  out.mixed = quick ? 1 : 4;
  out.clean = quick ? 2 : 8;
  return out;
}

async function writeJsonLines(path: string, records: LibraryRecord[]): Promise<void> {
  const w = new LineWriter(path);
  for (const r of records) await w.write(JSON.stringify(r));
  await w.close();
}

/** Build (or reuse, when already built with the same seed/version/mode) the test set. */
export async function generateTestSet(opts: GenerateOptions): Promise<TestSet> {
  const log = opts.log ?? (() => {});
  const mode = opts.quick ? 'quick' : 'full';
  const dir = join(opts.outRoot, `testset-s${opts.seed}-v${GEN_VERSION}-${mode}`);
  const truthPath = join(dir, 'truth.json');
  if (existsSync(truthPath)) {
    log(`test set: reusing ${dir}`);
    return JSON.parse(readFileSync(truthPath, 'utf8')) as TestSet;
  }
  const t0 = performance.now();
  // written to a private folder and renamed at the end: two runs may generate at once
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'docs'), { recursive: true });
  const corpus = await loadCorpus();
  const rng = createRng(opts.seed);
  const order = rng.fork('split').shuffle(corpus.map((_, i) => i));
  const cut = Math.round(corpus.length * LIBRARY_SHARE);
  const libIdx = order.slice(0, cut).sort((a, b) => a - b);
  const heldIdx = order.slice(cut).sort((a, b) => a - b);
  const library = libIdx.map((i) => toLibrary(corpus[i]!));
  const held = heldIdx.map((i) => corpus[i]!);

  const libraryPath = join(dir, 'library.jsonl');
  await writeJsonLines(join(work, 'library.jsonl'), library);
  const corpusPath = join(opts.outRoot, 'corpus-full.jsonl');
  if (!existsSync(corpusPath)) {
    await writeJsonLines(`${corpusPath}.tmp-${process.pid}`, corpus.map(toLibrary));
    renameSync(`${corpusPath}.tmp-${process.pid}`, corpusPath);
  }

  const map = buildWindowMap(library);
  const gen = new Generator(library, map, held, loadSynonyms());
  log(
    `test set: library ${library.length} records, held out ${held.length} (${gen.fillerCount} filler sentences), ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const docs: TruthDoc[] = [];
  const perType = docsPerType(opts.quick);
  let speedThesis = '';
  for (const type of DOC_TYPES) {
    for (let k = 0; k < perType[type]; k++) {
      const id = `${type}-${String(k + 1).padStart(2, '0')}`;
      const drng = createRng(`${opts.seed}/${id}`);
      const isSpeed = type === 'mixed' && k === 0;
      const target = isSpeed ? 30000 : opts.quick ? drng.int(8000, 14000) : drng.int(8000, 30000);
      const { text, truth } = gen.document(id, type, target, drng);
      writeFileSync(join(work, truth.file), text);
      docs.push(truth);
      if (isSpeed) speedThesis = id;
    }
  }
  const set: TestSet = {
    version: GEN_VERSION,
    seed: opts.seed,
    mode,
    dir,
    libraryPath,
    libraryRecords: library.length,
    libraryChars: library.reduce((a, r) => a + cpLength(r.text), 0),
    corpusPath,
    corpusRecords: corpus.length,
    corpusChars: corpus.reduce((a, r) => a + cpLength(r.abstract), 0),
    speedThesis,
    docs,
    synonymStats: { words: gen.synonymWords, replaced: gen.synonymReplaced },
  };
  writeFileSync(join(work, 'truth.json'), JSON.stringify(set));
  if (existsSync(truthPath)) rmSync(work, { recursive: true, force: true });
  else {
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
  }
  log(
    `test set: ${docs.length} documents, ${docs.reduce((a, d) => a + d.chars, 0)} characters, ${docs.reduce((a, d) => a + d.cases.length, 0)} cases, leaks ${docs.reduce((a, d) => a + d.leakChars, 0)} chars, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return set;
}

if (import.meta.main) {
  const quick = process.argv.includes('--quick');
  const seedArg = process.argv.find((a) => a.startsWith('--seed='));
  const outRoot = new URL('../../../.bench/', import.meta.url).pathname;
  const set = await generateTestSet({
    seed: seedArg ? Number(seedArg.slice(7)) : 20240601,
    quick,
    outRoot,
    log: console.log,
  });
  console.log(set.dir);
}
