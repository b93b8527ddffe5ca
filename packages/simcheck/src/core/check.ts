/**
 * The check pipeline: normalise -> structure -> fingerprint -> candidates from the index ->
 * exact alignment -> word-level stage -> one source per input character -> quotations and the
 * reference list -> report. The candidate choice is candidates.ts,
 * the shaping of passages passages.ts.
 */
import { type Core, extendSeeds, mergePassages, type Passage, SEED_Q } from './align.ts';
import { rankCandidates } from './candidates.ts';
import { hashKgrams, winnow } from './fingerprint.ts';
import { type NormalizedText, normalizeText, toNormalizedIndex } from './normalize.ts';
import { type Options, resolveOptions } from './options.ts';
import { findParaphrases, type SentenceRange, sentenceAt, splitSentences } from './paraphrase.ts';
import {
  bridgeGaps,
  getClauseIds,
  isRewriteAroundCores,
  isVerbatimPassage,
  longestClausePart,
  MIN_CORE,
  mapToSource,
  splitByKind,
} from './passages.ts';
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

/** Extra source distance allowed when merging runs whose source order is swapped (reordered sentences). */
const REORDER_SLACK = 160;
const EXCLUDED = 2;
type Candidate = { doc: StoredDocument; norm: NormalizedText; passages: Passage[] };

/** Exact passages shorter than this must have `minRun` characters inside one clause (see below). */
const SHORT_PASSAGE = 20;
const CLOSING_PUNCT = /[。．.，,；;！!？?：:、”’」』）)】\]…]/;

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
