/**
 * PAN plagiarism-detection measures (Potthast, Stein, Barrón-Cedeño, Rosso: "An Evaluation Framework
 * for Plagiarism Detection", COLING 2010), at character level.
 *
 * A case s and a detection r are both a pair of character ranges: one in the suspicious document and
 * one in a source document. As character sets, |s| = |s_plg| + |s_src|.
 *   r detects s  iff  same suspicious document, same source, and they overlap on both sides.
 *   s ⊓ r = s ∩ r if r detects s, else ∅.
 *   prec = 1/|R| Σ_r |⋃_s (s ⊓ r)| / |r|          rec = 1/|S| Σ_s |⋃_r (s ⊓ r)| / |s|
 *   gran = 1/|S_R| Σ_{s ∈ S_R} |R_s|  (S_R: detected cases, R_s: detections of s)
 *   plagdet = F1 / log2(1 + gran)
 * Macro averages are pooled over the whole collection (all documents), as PAN does. Edge cases as in
 * PAN's perfmeasures.py: no cases and no detections → 1; exactly one of them empty → 0; gran = 1
 * when nothing is detected.
 */

export interface Span {
  /** suspicious document */
  doc: string;
  start: number;
  end: number;
  sourceId: string;
  sourceStart: number;
  sourceEnd: number;
}

export interface PanScores {
  precision: number;
  recall: number;
  granularity: number;
  plagdet: number;
  cases: number;
  detections: number;
}

type Range = readonly [number, number];

function overlaps(a0: number, a1: number, b0: number, b1: number): boolean {
  return a0 < b1 && b0 < a1;
}

/** Total length of the union of ranges clipped to [lo, hi). */
export function unionLength(
  ranges: Range[],
  lo = Number.NEGATIVE_INFINITY,
  hi = Number.POSITIVE_INFINITY,
): number {
  const clipped = ranges
    .map(([a, b]) => [Math.max(a, lo), Math.min(b, hi)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let curStart = Number.NaN;
  let curEnd = Number.NaN;
  for (const [a, b] of clipped) {
    if (Number.isNaN(curStart) || a > curEnd) {
      if (!Number.isNaN(curStart)) total += curEnd - curStart;
      curStart = a;
      curEnd = b;
    } else if (b > curEnd) curEnd = b;
  }
  if (!Number.isNaN(curStart)) total += curEnd - curStart;
  return total;
}

export function detects(r: Span, s: Span): boolean {
  return (
    r.doc === s.doc &&
    r.sourceId === s.sourceId &&
    overlaps(r.start, r.end, s.start, s.end) &&
    overlaps(r.sourceStart, r.sourceEnd, s.sourceStart, s.sourceEnd)
  );
}

function size(x: Span): number {
  return x.end - x.start + (x.sourceEnd - x.sourceStart);
}

function groupByDoc(spans: Span[]): Map<string, Span[]> {
  const m = new Map<string, Span[]>();
  for (const s of spans) {
    let list = m.get(s.doc);
    if (!list) {
      list = [];
      m.set(s.doc, list);
    }
    list.push(s);
  }
  return m;
}

/** |⋃_{o ∈ others detecting/detected by x} (x ∩ o)| / |x| */
function coveredFraction(x: Span, others: Span[]): number {
  const plg: Range[] = [];
  const src: Range[] = [];
  for (const o of others) {
    plg.push([o.start, o.end]);
    src.push([o.sourceStart, o.sourceEnd]);
  }
  const covered = unionLength(plg, x.start, x.end) + unionLength(src, x.sourceStart, x.sourceEnd);
  const n = size(x);
  return n === 0 ? 0 : covered / n;
}

export function panScores(cases: Span[], detections: Span[]): PanScores {
  const base = { cases: cases.length, detections: detections.length };
  if (cases.length === 0 && detections.length === 0) {
    return { precision: 1, recall: 1, granularity: 1, plagdet: 1, ...base };
  }
  const casesByDoc = groupByDoc(cases);
  const detsByDoc = groupByDoc(detections);
  let recallSum = 0;
  let granSum = 0;
  let detected = 0;
  for (const s of cases) {
    const rs = (detsByDoc.get(s.doc) ?? []).filter((r) => detects(r, s));
    if (rs.length > 0) {
      detected++;
      granSum += rs.length;
      recallSum += coveredFraction(s, rs);
    }
  }
  let precisionSum = 0;
  for (const r of detections) {
    const ss = (casesByDoc.get(r.doc) ?? []).filter((s) => detects(r, s));
    if (ss.length > 0) precisionSum += coveredFraction(r, ss);
  }
  const precision = detections.length === 0 ? 0 : precisionSum / detections.length;
  const recall = cases.length === 0 ? 0 : recallSum / cases.length;
  const granularity = detected === 0 ? 1 : granSum / detected;
  return { precision, recall, granularity, plagdet: plagdet(precision, recall, granularity), ...base };
}

export function plagdet(precision: number, recall: number, granularity: number): number {
  if (precision + recall === 0) return 0;
  const f1 = (2 * precision * recall) / (precision + recall);
  return f1 / Math.log2(1 + granularity);
}

/** Characters of [0, chars) covered by the detections' suspicious ranges, as a fraction. */
export function coveredRate(ranges: Array<{ start: number; end: number }>, chars: number): number {
  if (chars === 0) return 0;
  return (
    unionLength(
      ranges.map((r) => [r.start, r.end] as const),
      0,
      chars,
    ) / chars
  );
}

/** Binary classification figures for the paraphrase pairs. */
export interface BinaryScores {
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function binaryScores(pairs: Array<{ gold: boolean; predicted: boolean }>): BinaryScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const p of pairs) {
    if (p.gold && p.predicted) tp++;
    else if (!p.gold && p.predicted) fp++;
    else if (p.gold && !p.predicted) fn++;
    else tn++;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const accuracy = pairs.length === 0 ? 0 : (tp + tn) / pairs.length;
  return { precision, recall, f1, accuracy, tp, fp, fn, tn };
}
