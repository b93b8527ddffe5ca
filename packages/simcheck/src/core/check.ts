/**
 * The check pipeline: normalise -> structure -> fingerprint -> candidates from the index ->
 * exact alignment -> word-level stage -> one source per input character -> quotations and the
 * reference list -> report.
 */
import { type Core, copyPassage, extendSeeds, mergePassages, type Passage, SEED_Q } from './align.ts';
import { hashKgrams, winnow } from './fingerprint.ts';
import { type NormalizedText, normalizeText, toNormalizedIndex } from './normalize.ts';
import { type Options, resolveOptions } from './options.ts';
import {
  findParaphrases,
  getOrderScore,
  type SentenceRange,
  sentenceAt,
  splitSentences,
} from './paraphrase.ts';
import { buildReport, type RawMatch } from './report.ts';
import { sortIndicesByKey, sortUint32 } from './sort.ts';
import { analyzeStructure, type HeadingHint } from './structure.ts';
import type { Index, Postings, Report, StoredDocument } from './types.ts';

/**
 * Where a check is: its stage and the share of the whole comparison done (0..1, never going back).
 * Reported synchronously from inside `checkText`, a few dozen times per check at most.
 */
export type CheckProgress = {
  readonly stage: 'candidates' | 'exact' | 'paraphrase' | 'report';
  readonly fraction: number;
};

export type CheckOptions = Partial<Options> & {
  /** Headings found by the extractor (e.g. .docx heading styles), used as hints for the structure. */
  readonly headings?: readonly HeadingHint[];
  /** Called as the check moves through its stages (see {@link CheckProgress}). */
  readonly onProgress?: (progress: CheckProgress) => void;
};

/** Documents kept for the greedy choice: maxCandidates × this many, by total weight. */
const HEAP_FACTOR = 10;
/** Extra source distance allowed when merging runs whose source order is swapped (reordered sentences). */
const REORDER_SLACK = 160;
const EXCLUDED = 2;
/** Exact passages shorter than this must have `minRun` characters inside one clause (see below). */
const SHORT_PASSAGE = 20;
/** Clause ends (。！？!?；;：: and line breaks) as a code-unit table. */
const CLAUSE_END = new Uint8Array(0x10000);
for (const ch of '。！？!?；;：:\n') CLAUSE_END[ch.charCodeAt(0)] = 1;
const CLOSING_PUNCT = /[。．.，,；;！!？?：:、”’」』）)】\]…]/;

/**
 * Choose candidate documents by greedy weighted coverage of the input's fingerprints. Each shared
 * fingerprint weighs 1 / log2(1 + document frequency), so stock phrases count little; fingerprints
 * in more than `maxDocFrequency` documents are ignored. The document covering the most weight is
 * taken first, and fingerprints it covers no longer count for the others: a passage found in many
 * library documents (duplicates, a large synthetic library) brings in one of them, not all, and the
 * slots go to distinct parts of the input. The first `maxCandidates` are taken whatever they add;
 * after them the choice goes on while a document still adds `minMarginalWeight` (a thesis copied
 * from hundreds of sources is reported in full), up to `candidateLimit`. Lazy greedy (Minoux) with
 * a max-heap; ties are broken by docNo, so the choice is deterministic.
 */
export function rankCandidates(postings: Postings, options: Options): number[] {
  const { hashes, docNos } = postings;
  const total = hashes.length;
  let maxDoc = 0;
  for (let x = 0; x < total; x++) if (docNos[x]! > maxDoc) maxDoc = docNos[x]!;
  // Distinct (hash group, document) pairs; each document's score is the weight of its groups.
  // Documents get dense indices in order of first appearance (a direct table: docNos are small).
  const docIndex = new Int32Array(maxDoc + 1).fill(-1);
  // At most one document per posting: preallocated, no growth.
  const docList = new Uint32Array(total);
  const score = new Float64Array(total);
  let nDocs = 0;
  const weights = new Float64Array(total);
  const pairGroup = new Uint32Array(total);
  const pairDoc = new Uint32Array(total);
  let nGroups = 0;
  let nPairs = 0;
  let i = 0;
  while (i < total) {
    let j = i;
    let df = 0;
    let prev = -1;
    // Compared as int32 (the same equality): hashes of 2^31 and more are not small integers, and
    // code optimised for those it had seen until then would be thrown away at the first one.
    const h = hashes[i]! | 0;
    while (j < total && (hashes[j]! | 0) === h) {
      if (docNos[j] !== prev) {
        df++;
        prev = docNos[j]!;
      }
      j++;
    }
    if (df <= options.maxDocFrequency) {
      const g = nGroups++;
      const w = 1 / Math.log2(1 + df);
      weights[g] = w;
      prev = -1;
      for (let x = i; x < j; x++) {
        const d = docNos[x]!;
        if (d === prev) continue;
        prev = d;
        let di = docIndex[d]!;
        if (di < 0) {
          di = nDocs++;
          docIndex[d] = di;
          docList[di] = d;
        }
        score[di]! += w;
        pairGroup[nPairs] = g;
        pairDoc[nPairs++] = di;
      }
    }
    i = j;
  }

  // Only the documents with the most weight can win a slot: with a large library thousands of
  // documents share a stock phrase or two, and sifting them all through the heap is wasted work.
  const keep = Math.max(options.maxCandidates * HEAP_FACTOR, options.candidateLimit * 2);
  const floor = nDocs > keep ? kthLargest(score.slice(0, nDocs), keep) : 0;
  // The kept documents' groups (CSR), under new dense indices.
  const keptIndex = new Int32Array(nDocs).fill(-1);
  const kept: number[] = [];
  for (let x = 0; x < nDocs; x++) {
    if (score[x]! >= floor) {
      keptIndex[x] = kept.length;
      kept.push(x);
    }
  }
  const nKept = kept.length;
  const offsets = new Uint32Array(nKept + 1);
  for (let x = 0; x < nPairs; x++) {
    const k = keptIndex[pairDoc[x]!]!;
    if (k >= 0) offsets[k + 1]!++;
  }
  for (let x = 1; x <= nKept; x++) offsets[x]! += offsets[x - 1]!;
  const fill = offsets.slice(0, nKept);
  const groups = new Uint32Array(offsets[nKept]!);
  for (let x = 0; x < nPairs; x++) {
    const k = keptIndex[pairDoc[x]!]!;
    if (k >= 0) groups[fill[k]!++] = pairGroup[x]!;
  }
  const keptScore = new Float64Array(nKept);
  const keptDoc = new Uint32Array(nKept);
  for (let k = 0; k < nKept; k++) {
    keptScore[k] = score[kept[k]!]!;
    keptDoc[k] = docList[kept[k]!]!;
  }
  return greedyCover(keptScore, keptDoc, offsets, groups, weights, nGroups, options);
}

/** The k-th largest value of `values` (1-based; Hoare's quickselect, reorders `values`). */
function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let a = lo;
    let b = hi;
    while (a <= b) {
      while (values[a]! > pivot) a++;
      while (values[b]! < pivot) b--;
      if (a <= b) {
        const t = values[a]!;
        values[a] = values[b]!;
        values[b] = t;
        a++;
        b--;
      }
    }
    if (target <= b) hi = b;
    else if (target >= a) lo = a;
    else break; // between the two parts: values[target] is the pivot
  }
  return values[target]!;
}

/**
 * Lazy greedy weighted coverage (see rankCandidates) over documents with their initial scores,
 * docNos, and groups in CSR form (offsets, groups).
 */
function greedyCover(
  score: Float64Array,
  docList: Uint32Array,
  offsets: Uint32Array,
  groups: Uint32Array,
  weights: Float64Array,
  nGroups: number,
  options: Pick<Options, 'maxCandidates' | 'candidateLimit' | 'minMarginalWeight'>,
): number[] {
  const nDocs = score.length;
  // Max-heap of document indices by (score desc, docNo asc), built in O(n).
  const heap = new Uint32Array(nDocs);
  let size = 0;
  for (let x = 0; x < nDocs; x++) heap[size++] = x;
  const better = (a: number, b: number) =>
    score[a]! > score[b]! || (score[a] === score[b] && docList[a]! < docList[b]!);
  const siftDown = (start: number) => {
    let c = start;
    for (;;) {
      const l = 2 * c + 1;
      const r = l + 1;
      let m = c;
      if (l < size && better(heap[l]!, heap[m]!)) m = l;
      if (r < size && better(heap[r]!, heap[m]!)) m = r;
      if (m === c) return;
      const t = heap[c]!;
      heap[c] = heap[m]!;
      heap[m] = t;
      c = m;
    }
  };
  for (let x = (size >> 1) - 1; x >= 0; x--) siftDown(x);
  const covered = new Uint8Array(nGroups);
  const chosen: number[] = [];
  while (size > 0 && chosen.length < options.candidateLimit) {
    const di = heap[0]!;
    let current = 0;
    for (let x = offsets[di]!; x < offsets[di + 1]!; x++)
      if (!covered[groups[x]!]) current += weights[groups[x]!]!;
    if (current < score[di]!) {
      // Stale: update and let it sink (lazy greedy); drop it when nothing is left to cover.
      score[di] = current;
      if (current <= 0) {
        heap[0] = heap[--size]!;
      }
      siftDown(0);
      continue;
    }
    if (current <= 0) break;
    // Past the first maxCandidates, only documents that still add real evidence (the heap's top
    // has the most; nothing after it adds more).
    if (chosen.length >= options.maxCandidates && current < options.minMarginalWeight) break;
    chosen.push(docList[di]!);
    for (let x = offsets[di]!; x < offsets[di + 1]!; x++) covered[groups[x]!] = 1;
    heap[0] = heap[--size]!;
    siftDown(0);
  }
  return chosen;
}

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

function longestClausePart(ids: Int32Array, from: number, to: number): number {
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

type Candidate = { doc: StoredDocument; norm: NormalizedText; passages: Passage[] };

/**
 * Shortest exact-stage passage kept verbatim inside a word-level passage. Shorter exact pieces of a
 * synonym rewrite (the unchanged stretches between substitutions) stay part of the paraphrase
 * match: splitting them out would report one rewritten passage as many fragments (benchmark: at 26
 * the synonym plagdet fell from 0.92 to 0.72, at 40 to 0.85, granularity 1.5 / 1.2; 50 and 60
 * left it unchanged on the quick set, 60 keeps a margin).
 */
const MIN_CORE = 60;

/** A passage is verbatim when at least this share of it lies in exact runs. */
const VERBATIM_SHARE = 0.8;

function isVerbatimPassage(p: Passage): boolean {
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
function isRewriteAroundCores(p: Passage, q: Uint32Array, s: Uint32Array): boolean {
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
function mapToSource(p: Passage | Core, a: number, b: number): [number, number] {
  if (p.diagonal) return [p.ss + (a - p.qs), p.ss + (b - p.qs)];
  const scale = (p.se - p.ss) / Math.max(1, p.qe - p.qs);
  const ss = Math.min(p.se - 1, p.ss + Math.round((a - p.qs) * scale));
  const se = Math.max(ss + 1, Math.min(p.se, p.ss + Math.round((b - p.qs) * scale)));
  return [ss, se];
}

/** A k-gram repeated more often than this in the input seeds from its first occurrences only. */
const MAX_SEED_POSITIONS = 256;

/**
 * Seeds of the exact stage, per candidate document (docNos, in the order of `docs`), given the
 * input's k-gram hashes and their order by hash (`order`): every posting
 * of a candidate paired with each input position of the same k-gram hash, packed as in extendSeeds.
 * Each postings list and the input's k-grams are walked in hash order (a merge join).
 */
function collectSeeds(
  qHashes: Uint32Array,
  order: Uint32Array,
  lists: readonly (Postings | undefined)[],
  docs: readonly number[],
): Float64Array[] {
  let maxDoc = 0;
  for (const d of docs) maxDoc = Math.max(maxDoc, d);
  const slot = new Int32Array(maxDoc + 1).fill(-1);
  docs.forEach((d, c) => {
    slot[d] = c;
  });
  // Two passes: count, then fill typed arrays.
  const counts = new Uint32Array(docs.length);
  const pass = ({ hashes, docNos, positions }: Postings, fill?: Float64Array[], at?: Uint32Array) => {
    let qi = 0;
    const nq = order.length;
    for (let x = 0; x < hashes.length; ) {
      const h = hashes[x]!;
      let y = x + 1;
      while (y < hashes.length && hashes[y] === h) y++;
      while (qi < nq && qHashes[order[qi]!]! < h) qi++;
      let qj = qi;
      while (qj < nq && qHashes[order[qj]!] === h) qj++;
      const qEnd = Math.min(qj, qi + MAX_SEED_POSITIONS);
      if (qEnd > qi) {
        for (let z = x; z < y; z++) {
          const d = docNos[z]!;
          const c = d <= maxDoc ? slot[d]! : -1;
          if (c < 0) continue;
          if (!fill) {
            counts[c]! += qEnd - qi;
            continue;
          }
          const base = positions[z]! * SEED_Q;
          const arr = fill[c]!;
          for (let t = qi; t < qEnd; t++) arr[at![c]!++] = base + order[t]!;
        }
      }
      x = y;
    }
  };
  const present = lists.filter((p): p is Postings => p !== undefined);
  for (const p of present) pass(p);
  // One allocation for all of them (hundreds of candidates): each candidate's seeds are a view.
  let total = 0;
  for (let c = 0; c < docs.length; c++) total += counts[c]!;
  const all = new Float64Array(total);
  let offset = 0;
  const out = docs.map((_, c) => {
    const view = all.subarray(offset, offset + counts[c]!);
    offset += counts[c]!;
    return view;
  });
  const at = new Uint32Array(docs.length);
  for (const p of present) pass(p, out, at);
  return out;
}

/**
 * Whether seeds (packed as in extendSeeds) show a shared run: two of them on one diagonal (same
 * input − source offset) at most `reach` input characters apart, as the fingerprints of a copied
 * run of 13 characters or more usually are. A candidate with scattered seeds only shares stock
 * k-grams here and there.
 */
let evidenceKeys = new Float64Array(1024);

function hasRunEvidence(seeds: Float64Array, reach: number): boolean {
  if (seeds.length < 2) return false;
  // Scratch space shared by the calls (one per candidate, hundreds per check).
  if (evidenceKeys.length < seeds.length) evidenceKeys = new Float64Array(seeds.length * 2);
  const keys = evidenceKeys.subarray(0, seeds.length);
  for (let x = 0; x < seeds.length; x++) {
    const j = Math.floor(seeds[x]! / SEED_Q);
    const i = seeds[x]! - j * SEED_Q;
    keys[x] = (i - j + SEED_Q) * SEED_Q + i;
  }
  keys.sort();
  for (let x = 1; x < keys.length; x++) {
    const d0 = Math.floor(keys[x - 1]! / SEED_Q);
    const d1 = Math.floor(keys[x]! / SEED_Q);
    if (d0 === d1 && keys[x]! - keys[x - 1]! <= reach) return true;
  }
  return false;
}

/** Source sentences within this many sentences of a seed are searched by the word-level stage. */
const SEED_REACH = 2;
/** ... and input sentences within this many sentences of one (a rewritten passage runs on). */
const INPUT_SEED_REACH = 3;

/** Source positions of seeds sorted by source position (extendSeeds sorts them so). */
function sourcePositions(seeds: Float64Array): Float64Array {
  const out = new Float64Array(seeds.length);
  for (let x = 0; x < seeds.length; x++) out[x] = Math.floor(seeds[x]! / SEED_Q);
  return out;
}

/**
 * The sentences within `reach` sentences of a position (ascending): where a source shares k-grams
 * with the input, a rewritten passage is found beside or between them; the rest of a long text
 * (another chapter of a library thesis, the honest parts of the input) is not searched.
 */
function nearPositions(
  sentences: readonly SentenceRange[],
  positions: Float64Array,
  reach: number,
): Uint8Array {
  const out = new Uint8Array(sentences.length);
  let j = 0;
  for (let x = 0; x < positions.length; x++) {
    const pos = positions[x]!;
    while (j + 1 < sentences.length && sentences[j + 1]!.from <= pos) j++;
    out.fill(1, Math.max(0, j - reach), Math.min(sentences.length, j + reach + 1));
  }
  return out;
}

/**
 * Check a text against an index.
 * @param text the extracted text of the document (any length; offsets in the report refer to it).
 * @param options engine options (see `defaultOptions`); `k` and `minRun` always come from the index.
 * @returns the report; offsets are Unicode code point offsets (UTF-16 offsets with `units:
 *   'product'`), end exclusive.
 */
export async function checkText(index: Index, text: string, options: CheckOptions = {}): Promise<Report> {
  const { headings, onProgress, ...rest } = options;
  let lastFraction = -1;
  const report = (stage: CheckProgress['stage'], fraction: number) => {
    // Whole percents only, never backwards: a caller may store every call.
    const f = Math.floor(Math.min(1, Math.max(0, fraction)) * 100) / 100;
    if (f <= lastFraction) return;
    lastFraction = f;
    onProgress?.({ stage, fraction: f });
  };
  report('candidates', 0);
  const opts = resolveOptions({ ...rest, k: index.params.k, minRun: index.params.minRun });
  const structure = analyzeStructure(text, headings);
  const norm = normalizeText(text);
  const n = norm.codes.length;

  // Positions the engine must never report: the reference list.
  const state = new Uint8Array(n);
  for (const [a, b] of structure.references) {
    state.fill(EXCLUDED, toNormalizedIndex(norm, a), toNormalizedIndex(norm, b));
  }

  const qHashes = hashKgrams(norm.codes, opts.k);
  // The input's k-grams in hash order (the seeds are a merge join of these with the postings).
  const qOrder = sortIndicesByKey(qHashes);
  // The hashes to look up, sorted and unique. Every k-gram of the input (see lookupAllKgrams), or
  // its winnowed fingerprints; never those of the reference list.
  let picked: Uint32Array;
  let nLookup = 0;
  if (opts.lookupAllKgrams) {
    picked = new Uint32Array(qHashes.length);
    for (let x = 0; x < qOrder.length; x++) {
      const i = qOrder[x]!;
      if (state[i]) continue;
      const h = qHashes[i]!;
      if (nLookup === 0 || picked[nLookup - 1] !== h) picked[nLookup++] = h;
    }
  } else {
    const fp = winnow(qHashes, opts.minRun - opts.k + 1);
    picked = sortUint32(fp.hashes.filter((_, i) => !state[fp.positions[i]!]));
    for (let i = 0; i < picked.length; i++)
      if (i === 0 || picked[i] !== picked[i - 1]) picked[nLookup++] = picked[i]!;
  }
  const lookupHashes = picked.subarray(0, nLookup);
  // Stock phrases of a large library (fingerprints in more than maxDocFrequency places) say little
  // about which document was copied: candidates are ranked without them, and their postings are
  // fetched afterwards for the chosen candidates only, as seeds (every shared run is still found).
  const postings =
    lookupHashes.length > 0
      ? await index.lookup(lookupHashes, { maxPostings: opts.maxDocFrequency })
      : undefined;
  const ranked = postings ? rankCandidates(postings, opts) : ([] as number[]);
  const frequent = postings?.frequent ?? new Uint32Array(0);
  const frequentPostings =
    frequent.length > 0 && ranked.length > 0 ? await index.lookup(frequent, { docNos: ranked }) : undefined;
  // Seeds per ranked candidate. The word-level stage's sources are aligned whatever their seeds
  // look like (a rewritten passage shares k-grams here and there, not runs); a candidate past them
  // is fetched and aligned only when its seeds show a shared run.
  const rankedSeeds = collectSeeds(qHashes, qOrder, [postings, frequentPostings], ranked);
  const seedsOf = new Map<number, Float64Array>();
  ranked.forEach((docNo, c) => {
    if (c < opts.maxParaphraseCandidates || hasRunEvidence(rankedSeeds[c]!, opts.minRun - opts.k))
      seedsOf.set(docNo, rankedSeeds[c]!);
  });
  const docs = seedsOf.size > 0 ? await index.getDocuments([...seedsOf.keys()]) : [];
  const seeds = docs.map((d) => seedsOf.get(d.docNo)!);
  report('exact', 0.2);

  // Exact stage, per candidate, from the seeds the postings give.
  const clauses = getClauseIds(norm);
  const candidates: Candidate[] = docs.map((doc, c) => {
    if (c % 20 === 0) report('exact', 0.2 + (0.3 * c) / docs.length);
    const sNorm = normalizeText(doc.text);
    const runs = extendSeeds(norm.codes, sNorm.codes, seeds[c]!, doc.docNo, opts.k, opts.minRun);
    const passages = mergePassages(runs, opts.mergeGap, REORDER_SLACK).filter(
      (p) => p.qe - p.qs >= SHORT_PASSAGE || longestClausePart(clauses, p.qs, p.qe) >= opts.minRun,
    );
    // An exact-stage passage that is verbatim on its own stays verbatim whatever it is merged with.
    for (const p of passages) {
      if (isVerbatimPassage(p) && p.qe - p.qs >= MIN_CORE)
        p.cores = [{ qs: p.qs, qe: p.qe, ss: p.ss, se: p.se, diagonal: p.diagonal }];
    }
    return { doc, norm: sNorm, passages };
  });
  report('paraphrase', 0.5);

  // Word-level stage on what the exact stage left uncovered.
  if (opts.paraphrase && candidates.length > 0) {
    const covered = state.slice();
    for (const c of candidates) for (const p of c.passages) covered.fill(1, p.qs, p.qe);
    const sentences = splitSentences(text, norm);
    // The word-level stage looks at the best-ranked candidates only: the long tail (small marginal
    // evidence) adds chances for false alarms and, in a large library, most of the cost.
    const sources = candidates
      .filter((_, rank) => rank < opts.maxParaphraseCandidates)
      .map((c, rank) => {
        const sourceSentences = splitSentences(c.doc.text, c.norm);
        return {
          docNo: c.doc.docNo,
          norm: c.norm,
          sentences: sourceSentences,
          retrievable: nearPositions(sourceSentences, sourcePositions(seeds[rank]!), SEED_REACH),
        };
      });
    // Input sentences are searched where they share something with those sources: a sentence
    // holding a seed of one of them, and the sentences near an exact passage or near a sentence
    // with two or more seeds of one source (a rewritten passage runs on; a single shared k-gram is
    // as often a stock phrase, so it vouches for its own sentence only).
    const searchable = new Uint8Array(sentences.length);
    const strong: number[] = [];
    const perSentence = new Uint16Array(sentences.length);
    const touched: number[] = [];
    for (let rank = 0; rank < sources.length; rank++) {
      for (const packed of seeds[rank]!) {
        const at = sentenceAt(sentences, packed % SEED_Q);
        if (perSentence[at] === 0) touched.push(at);
        searchable[at] = 1;
        if (++perSentence[at]! === 2) strong.push(sentences[at]!.from);
      }
      for (const at of touched) perSentence[at] = 0;
      touched.length = 0;
    }
    for (const c of candidates) for (const p of c.passages) strong.push(p.qs, p.qe - 1);
    const near = nearPositions(sentences, Float64Array.from(strong).sort(), INPUT_SEED_REACH);
    for (let i = 0; i < sentences.length; i++) searchable[i]! |= near[i]!;
    const anchors = candidates.flatMap((c) => c.passages);
    const fuzzy = await findParaphrases(
      norm,
      sentences,
      covered,
      sources,
      anchors,
      opts,
      (f) => report('paraphrase', 0.5 + 0.4 * f),
      searchable,
    );
    for (const c of candidates) {
      const mine = fuzzy.filter((p) => p.docNo === c.doc.docNo);
      if (mine.length > 0) c.passages = mergePassages([...c.passages, ...mine], opts.mergeGap, REORDER_SLACK);
      c.passages = bridgeGaps(c.passages);
    }
  }

  report('report', 0.9);
  // One source per input character: the source covering most of the input wins, then longer passages.
  const byDoc = new Map<number, Candidate>();
  const coverage = new Map<number, number>();
  const all: Passage[] = [];
  for (const c of candidates) {
    byDoc.set(c.doc.docNo, c);
    let total = 0;
    for (const p of c.passages) {
      total += p.qe - p.qs;
      all.push(p);
    }
    coverage.set(c.doc.docNo, total);
  }
  all.sort(
    (a, b) =>
      coverage.get(b.docNo)! - coverage.get(a.docNo)! ||
      b.qe - b.qs - (a.qe - a.qs) ||
      a.docNo - b.docNo ||
      a.qs - b.qs,
  );

  const quoteAt = new Int32Array(n).fill(-1);
  structure.quotations.forEach(([a, b], qi) => {
    quoteAt.fill(qi, toNormalizedIndex(norm, a), toNormalizedIndex(norm, b));
  });

  const raw: RawMatch[] = [];
  const claimed = state.slice();
  for (const p of all) {
    let a = p.qs;
    while (a < p.qe) {
      while (a < p.qe && claimed[a]) a++;
      let b = a;
      while (b < p.qe && !claimed[b]) b++;
      if (b - a >= opts.minRun) {
        claimed.fill(1, a, b);
        const rewrite =
          !isVerbatimPassage(p) &&
          p.cores !== undefined &&
          isRewriteAroundCores(p, norm.codes, byDoc.get(p.docNo)!.norm.codes);
        for (const piece of splitByKind(p, a, b, rewrite)) {
          // Split at quotation boundaries: cited quotations are typed `quoted`.
          let x = piece.a;
          while (x < piece.b) {
            const inQuote = quoteAt[x]! >= 0;
            let y = x + 1;
            while (y < piece.b && quoteAt[y]! >= 0 === inQuote) y++;
            if (inQuote || y - x >= opts.minRun) {
              raw.push(toRawMatch(p, x, y, inQuote ? 'quoted' : piece.kind, piece.core));
            }
            x = y;
          }
        }
      }
      a = b;
    }
  }

  function toRawMatch(p: Passage, a: number, b: number, kind: RawMatch['kind'], core?: Core): RawMatch {
    const c = byDoc.get(p.docNo)!;
    const [ss, se] = mapToSource(core ?? p, a, b);
    let start = norm.start[a]!;
    let end = norm.end[b - 1]!;
    let sourceStart = c.norm.start[ss]!;
    let sourceEnd = c.norm.end[se - 1]!;
    // Take the sentence punctuation that follows the passage when the source has it too.
    const nextKept = b < n ? norm.start[b]! : text.length;
    const sNextKept = se < c.norm.codes.length ? c.norm.start[se]! : c.doc.text.length;
    for (let t = 0; t < 2; t++) {
      if (
        end < nextKept &&
        CLOSING_PUNCT.test(text[end]!) &&
        sourceEnd < sNextKept &&
        CLOSING_PUNCT.test(c.doc.text[sourceEnd]!)
      ) {
        end++;
        sourceEnd++;
      } else break;
    }
    if (sourceStart > sourceEnd) sourceStart = sourceEnd;
    if (start > end) start = end;
    return {
      start,
      end,
      sourceId: c.doc.id,
      sourceTitle: c.doc.title,
      sourceText: c.doc.text,
      sourceStart,
      sourceEnd,
      kind,
    };
  }

  const result = buildReport(text, structure, raw, opts.units);
  report('report', 1);
  return result;
}
