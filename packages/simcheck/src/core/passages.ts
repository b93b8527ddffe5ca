import { type Core, copyPassage, type Passage } from './align.ts';
import type { NormalizedText } from './normalize.ts';
import { getOrderScore } from './paraphrase.ts';

// Shaping the exact passages of a check (check.ts): clause evidence for short runs, bridging a
// rewritten sentence between two copied ones, and splitting a passage into verbatim and rewritten parts.

/** Clause ends (。！？!?；;：: and line breaks) as a code-unit table. */
const CLAUSE_END = new Uint8Array(0x10000);
for (const ch of '。！？!?；;：:\n') CLAUSE_END[ch.charCodeAt(0)] = 1;

/**
 * Clause number of every normalised position (clauses end at 。！？；： and line breaks). Used to
 * reject a short run made of two stock phrases that only meet across a sentence end, e.g.
 * "……进行了数值模拟研究。结果表明：" — a run of 13 characters, but no copied clause.
 */
export function getClauseIds(norm: NormalizedText): Int32Array {
  const n = norm.codes.length;
  const ids = new Int32Array(n);
  let id = 0;
  for (let i = 1; i < n; i++) {
    for (let x = norm.end[i - 1]!; x < norm.start[i]!; x++) {
      if (CLAUSE_END[norm.original.charCodeAt(x)]) {
        id++;
        break;
      }
    }
    ids[i] = id;
  }
  return ids;
}

export function longestClausePart(ids: Int32Array, from: number, to: number): number {
  let best = 0;
  let runStart = from;
  for (let i = from + 1; i <= to; i++) {
    if (i === to || ids[i] !== ids[i - 1]) {
      best = Math.max(best, i - runStart);
      runStart = i;
    }
  }
  return best;
}

/** Largest input gap (normalised characters, about one sentence) that bridgeGaps closes. */
const BRIDGE_GAP = 60;
/** Both passages around a bridged gap must be at least this long. */
const BRIDGE_MIN = 30;

/**
 * Close a sentence-sized gap between two passages of one source when the source has a gap of about
 * the same size at the same place: the sentence in between was rewritten beyond what the
 * word-level stage recognised, but it sits where the source's own sentence sits.
 */
export function bridgeGaps(passages: readonly Passage[]): Passage[] {
  const out: Passage[] = [];
  for (const p of [...passages].sort((a, b) => a.qs - b.qs)) {
    const cur = out[out.length - 1];
    if (cur) {
      const qGap = p.qs - cur.qe;
      const sGap = p.ss - cur.se;
      const long = cur.qe - cur.qs >= BRIDGE_MIN && p.qe - p.qs >= BRIDGE_MIN;
      if (
        long &&
        qGap > 0 &&
        qGap <= BRIDGE_GAP &&
        sGap >= 0 &&
        Math.abs(sGap - qGap) <= Math.max(10, qGap * 0.5)
      ) {
        cur.qe = p.qe;
        cur.se = Math.max(cur.se, p.se);
        cur.exact += p.exact;
        cur.fuzzy += p.fuzzy + qGap;
        cur.diagonal = false;
        if (p.cores) cur.cores = [...(cur.cores ?? []), ...p.cores];
        continue;
      }
    }
    out.push(copyPassage(p));
  }
  return out;
}

/**
 * Shortest exact-stage passage kept verbatim inside a word-level passage. Shorter exact pieces of a
 * synonym rewrite (the unchanged stretches between substitutions) stay part of the paraphrase
 * match: splitting them out would report one rewritten passage as many fragments (benchmark: at 26
 * the synonym plagdet fell from 0.92 to 0.72, at 40 to 0.85, granularity 1.5 / 1.2; 50 and 60
 * left it unchanged on the quick set, 60 keeps a margin).
 */
export const MIN_CORE = 60;

/** A passage is verbatim when at least this share of it lies in exact runs. */
const VERBATIM_SHARE = 0.8;

export function isVerbatimPassage(p: Passage): boolean {
  return p.exact >= VERBATIM_SHARE * (p.qe - p.qs);
}

/** A stretch of a passage around its cores shorter than this (normalised characters) says nothing. */
const MIN_FLANK = 12;
/**
 * Order score (content characters in the same order, see getOrderScore) from which the stretch of a
 * passage beside a verbatim core is a rewrite of the source text beside the core's. Measured on the
 * benchmark: 40-character pieces of synonym-substituted passages against their source pieces score
 * 0.45 at the 10th percentile and 0.63 at the median; honest sentences on the same topic against
 * the best source sentence 0.14-0.29 (test/verbatim-in-paraphrase.test.ts).
 */
const REWRITE_ORDER = 0.4;

/**
 * Whether every stretch of passage p beside its verbatim cores rewrites the source text beside
 * them, in order and at about the same length: then the cores are the unchanged sentences of one
 * disguised passage (a synonym rewrite leaves some sentences as they were) and the passage is
 * reported as one paraphrase, not as pieces of alternating kinds. An honest sentence merged with a
 * verbatim copy (it resembles the source's neighbouring sentence) scores far lower, and a passage
 * whose sentences are reordered has no source text in order beside its cores: both keep the split.
 */
export function isRewriteAroundCores(p: Passage, q: Uint32Array, s: Uint32Array): boolean {
  const cores = [...p.cores!].sort((u, v) => u.qs - v.qs);
  let qx = p.qs;
  let sx = p.ss;
  let flanks = 0;
  for (let i = 0; i <= cores.length; i++) {
    const qe = i < cores.length ? cores[i]!.qs : p.qe;
    const se = i < cores.length ? cores[i]!.ss : p.se;
    const qLen = qe - qx;
    if (qLen >= MIN_FLANK) {
      const sLen = se - sx;
      if (sLen < 0.5 * qLen || sLen > 2 * qLen) return false;
      if (getOrderScore(q, qx, qe, s, sx, se) < REWRITE_ORDER) return false;
      flanks++;
    }
    if (i < cores.length) {
      qx = Math.max(qx, cores[i]!.qe);
      sx = Math.max(sx, cores[i]!.se);
    }
  }
  return flanks > 0;
}

/**
 * Split the input range [a, b) of passage p by kind: a verbatim passage is verbatim throughout;
 * otherwise (exact passages merged with word-level windows) the parts inside its verbatim cores are
 * verbatim, mapped to the source through their core, and only the rest is paraphrase — unless
 * `rewrite` says the whole passage is one rewrite (see isRewriteAroundCores): then it is one
 * paraphrase.
 */
export function splitByKind(
  p: Passage,
  a: number,
  b: number,
  rewrite?: boolean,
): { a: number; b: number; kind: 'verbatim' | 'paraphrase'; core?: Core }[] {
  if (isVerbatimPassage(p) || !p.cores || p.cores.length === 0 || rewrite) {
    return [{ a, b, kind: isVerbatimPassage(p) ? 'verbatim' : 'paraphrase' }];
  }
  const out: { a: number; b: number; kind: 'verbatim' | 'paraphrase'; core?: Core }[] = [];
  let x = a;
  for (const c of [...p.cores].sort((u, v) => u.qs - v.qs)) {
    const cs = Math.max(c.qs, x);
    const ce = Math.min(c.qe, b);
    if (ce <= cs) continue;
    if (cs > x) out.push({ a: x, b: cs, kind: 'paraphrase' });
    out.push({ a: cs, b: ce, kind: 'verbatim', core: c });
    x = ce;
  }
  if (x < b) out.push({ a: x, b, kind: 'paraphrase' });
  return out;
}

/** Source range of the input sub-range [a, b) of passage p. */
export function mapToSource(p: Passage | Core, a: number, b: number): [number, number] {
  if (p.diagonal) return [p.ss + (a - p.qs), p.ss + (b - p.qs)];
  const scale = (p.se - p.ss) / Math.max(1, p.qe - p.qs);
  const ss = Math.min(p.se - 1, p.ss + Math.round((a - p.qs) * scale));
  const se = Math.max(ss + 1, Math.min(p.se, p.ss + Math.round((b - p.qs) * scale)));
  return [ss, se];
}
