/**
 * Scoring one engine's outputs on the test set.
 *
 * How quoted passages are scored (decided here, documented in README):
 * - Plagiarism measures (P, R, gran, plagdet) use only the non-quoted cases as S and only the
 *   engine's non-quoted matches (kind verbatim or paraphrase) as R. A match typed `quoted` is the
 *   engine saying "properly cited, not plagiarism": it is neither credited nor penalised there.
 *   A quoted passage reported as verbatim/paraphrase is a false positive (it lowers precision).
 * - Quote typing is scored on its own: S = the quoted cases, R = the matches typed quoted.
 * - A detection is one contiguous reported passage: non-quoted matches of one source that touch in
 *   the input (no character between them) count as one detection. An engine that types the
 *   unchanged stretch of a rewritten passage verbatim and the rest paraphrase reports one passage in
 *   two colours, not two finds; granularity should not punish the typing. Both engines are scored
 *   this way.
 * - Short overlaps (< 13 characters) are not cases: any non-quoted match over them is a false
 *   positive, and they are counted separately ("short overlaps hit").
 * - False-positive character rate: characters covered by non-quoted matches that lie outside every
 *   planted plagiarism case, over the document's characters (on clean documents this is the target
 *   figure; quoted passages count as outside).
 * - Matches lying inside an unplanned 13-character overlap that the generator found ("leaks", a few
 *   per test set, e.g. a stock phrase across two of our own sentences) are left out of all figures.
 * - Rate error: |reported 去除引用文献复制比 − true plagiarism characters / characters|, mean over
 *   documents, where true = planted plus unplanned overlaps outside the reference list (falls back
 *   to the reported ratio when the engine has no separate figure), and
 *   |reported 总文字复制比 − (plagiarism + quoted characters) / characters| as a second figure.
 */
import type { CheckMatch, CheckOutput } from './engines/types.ts';
import type { DocType, TestSet, TruthDoc } from './generate.ts';
import { DOC_TYPES, PLAGIARISM_TYPES, type PlagiarismType } from './generate.ts';
import { type PanScores, panScores, type Span, unionLength } from './measures.ts';

export interface DocResult {
  output: CheckOutput;
  ms: number;
}

export interface TypeScores {
  type: DocType | 'overall';
  docs: number;
  cases: number;
  chars: number;
  plagiarism: PanScores;
  /** quote typing (only where there are quoted cases) */
  quoting?: PanScores;
  /** characters of quoted cases covered by non-quoted matches / quoted characters */
  quotedAsPlagiarism?: number;
  fpRate: number;
  shortOverlaps: number;
  shortOverlapsHit: number;
  /** mean |reported plagiarism rate − true| in percentage points */
  rateError: number;
  /** mean |reported total rate (with quotes) − true| in percentage points */
  rateErrorTotal: number;
  /** sum of check times of the documents, ms */
  checkMs: number;
}

function toSpan(doc: string, m: CheckMatch | TruthDoc['cases'][number]): Span {
  return {
    doc,
    start: m.start,
    end: m.end,
    sourceId: m.sourceId,
    sourceStart: m.sourceStart,
    sourceEnd: m.sourceEnd,
  };
}

function plagiarismRate(out: CheckOutput): number {
  if (typeof out.ratioExcludingQuotes === 'number') return out.ratioExcludingQuotes;
  return out.ratio;
}

export function scoreDocs(
  docs: TruthDoc[],
  results: Record<string, DocResult>,
  type: DocType | 'overall',
): TypeScores {
  const cases: Span[] = [];
  const dets: Span[] = [];
  const qCases: Span[] = [];
  const qDets: Span[] = [];
  let chars = 0;
  let fpChars = 0;
  let quotedChars = 0;
  let quotedHit = 0;
  let shorts = 0;
  let shortsHit = 0;
  let rateErr = 0;
  let rateErrTotal = 0;
  let checkMs = 0;
  for (const d of docs) {
    const r = results[d.id];
    if (!r) throw new Error(`no result for ${d.id}`);
    const out = r.output;
    checkMs += r.ms;
    chars += d.chars;
    // matches lying within an unplanned shared window found by the generator (a leak, ±3
    // characters) are true 13-character overlaps we did not plant: neither credited nor penalised
    const isLeak = (m: CheckMatch) => d.leaks.some(([a, b]) => m.start >= a - 3 && m.end <= b + 3);
    const matches = out.matches.filter((m) => !isLeak(m));
    const plagMatches = matches.filter((m) => m.kind !== 'quoted');
    for (const c of d.cases) (c.type === 'quoted' ? qCases : cases).push(toSpan(d.id, c));
    for (const m of matches) if (m.kind === 'quoted') qDets.push(toSpan(d.id, m));
    for (const m of joinTouching(plagMatches)) dets.push(toSpan(d.id, m));
    const flagged = plagMatches.map((m) => [m.start, m.end] as const);
    const planted = d.cases.filter((c) => c.type !== 'quoted').map((c) => [c.start, c.end] as const);
    // flagged characters outside planted plagiarism = |flagged| − |flagged ∩ planted|
    const flaggedAll = unionLength(flagged, 0, d.chars);
    let inside = 0;
    for (const [a, b] of mergeRanges(planted)) inside += unionLength(flagged, a, b);
    fpChars += flaggedAll - inside;
    for (const c of d.cases.filter((x) => x.type === 'quoted')) {
      quotedChars += c.end - c.start;
      quotedHit += unionLength(flagged, c.start, c.end);
    }
    for (const s of d.shortOverlaps) {
      shorts++;
      if (unionLength(flagged, s.start, s.end) > 0) shortsHit++;
    }
    // unplanned overlaps outside the reference list are real 13-character overlaps: part of the true rate
    const leakBody =
      unionLength([...d.leaks], 0, d.references.start) + unionLength([...d.leaks], d.references.end, d.chars);
    rateErr += Math.abs(plagiarismRate(out) - (d.plagiarismChars + leakBody) / d.chars);
    rateErrTotal += Math.abs(out.ratio - (d.plagiarismChars + d.quotedChars + leakBody) / d.chars);
  }
  const n = docs.length || 1;
  return {
    type,
    docs: docs.length,
    cases: cases.length + qCases.length,
    chars,
    plagiarism: panScores(cases, dets),
    quoting: qCases.length > 0 ? panScores(qCases, qDets) : undefined,
    quotedAsPlagiarism: quotedChars > 0 ? quotedHit / quotedChars : undefined,
    fpRate: chars === 0 ? 0 : fpChars / chars,
    shortOverlaps: shorts,
    shortOverlapsHit: shortsHit,
    rateError: (100 * rateErr) / n,
    rateErrorTotal: (100 * rateErrTotal) / n,
    checkMs,
  };
}

/** Non-quoted matches of one source that touch or overlap in the input, joined (see the header). */
export function joinTouching(matches: readonly CheckMatch[]): CheckMatch[] {
  const sorted = [...matches].sort((a, b) => a.sourceId.localeCompare(b.sourceId) || a.start - b.start);
  const out: CheckMatch[] = [];
  for (const m of sorted) {
    const last = out[out.length - 1];
    if (last && last.sourceId === m.sourceId && m.start <= last.end) {
      out[out.length - 1] = {
        ...last,
        end: Math.max(last.end, m.end),
        sourceStart: Math.min(last.sourceStart, m.sourceStart),
        sourceEnd: Math.max(last.sourceEnd, m.sourceEnd),
      };
    } else out.push({ ...m });
  }
  return out;
}

function mergeRanges(ranges: Array<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function scoreTestSet(set: TestSet, results: Record<string, DocResult>): TypeScores[] {
  const rows: TypeScores[] = [];
  for (const t of DOC_TYPES) {
    const docs = set.docs.filter((d) => d.type === t);
    if (docs.length > 0) rows.push(scoreDocs(docs, results, t));
  }
  rows.push(scoreDocs(set.docs, results, 'overall'));
  return rows;
}

/** Recall and granularity of the cases of one obfuscation type, over every document holding one. */
export interface CaseTypeScores {
  type: PlagiarismType;
  cases: number;
  recall: number;
  /** detections as scored above: touching non-quoted matches of one source are one detection */
  granularity: number;
  /** every non-quoted match its own detection: the marks a student sees over the passage */
  granularityShown: number;
}

/**
 * Per obfuscation type (the cases' type, wherever they were planted: the mixed documents hold every
 * type): recall and granularity. Precision has no type of its own (a false alarm belongs to no
 * case), so it stays with the per-document-type table.
 */
export function scoreByCaseType(set: TestSet, results: Record<string, DocResult>): CaseTypeScores[] {
  const rows: CaseTypeScores[] = [];
  for (const type of PLAGIARISM_TYPES) {
    const cases: Span[] = [];
    const joined: Span[] = [];
    const shown: Span[] = [];
    for (const d of set.docs) {
      const own = d.cases.filter((c) => c.type === type);
      if (own.length === 0) continue;
      const out = results[d.id]?.output;
      if (!out) throw new Error(`no result for ${d.id}`);
      for (const c of own) cases.push(toSpan(d.id, c));
      const plag = out.matches.filter((m) => m.kind !== 'quoted');
      for (const m of joinTouching(plag)) joined.push(toSpan(d.id, m));
      for (const m of plag) shown.push(toSpan(d.id, m));
    }
    if (cases.length === 0) continue;
    const scored = panScores(cases, joined);
    rows.push({
      type,
      cases: cases.length,
      recall: scored.recall,
      granularity: scored.granularity,
      granularityShown: panScores(cases, shown).granularity,
    });
  }
  return rows;
}
