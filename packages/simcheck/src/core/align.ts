/**
 * Character-level alignment of the input against one candidate source: seed, extend, merge.
 *
 * Seeds are the fingerprints the index returned for the candidate, paired with the input's k-grams
 * of the same hash (no second pass over the source's text). Each seed is verified character by
 * character and extended left and right into a maximal exact run; a run shorter than `minRun`
 * normalised characters is dropped, so nothing under 13 matching characters ever counts. Runs of
 * one source that are close in the input and in the source merge into one passage, so a copied
 * passage with a changed word or two, or with its sentences shuffled, is reported once.
 */

/** An aligned passage in normalised coordinates: input [qs, qe) against source [ss, se). */
export type Passage = {
  docNo: number;
  qs: number;
  qe: number;
  ss: number;
  se: number;
  /** Input characters inside exact runs. */
  exact: number;
  /** Input characters matched at word level (paraphrase stage). */
  fuzzy: number;
  /** True while the passage is one exact run (source offset = input offset + constant). */
  diagonal: boolean;
  /**
   * Verbatim cores: the passages of the exact stage (exact-verified, typed verbatim on their own)
   * that this passage took in, in input order. Merging with word-level windows must not turn them
   * into paraphrase: the checker reports them as `verbatim` and only the rest as `paraphrase`.
   * Always present (undefined when none): passages are made with one shape, so the code that
   * reads them stays optimised (see copyPassage).
   */
  cores: Core[] | undefined;
};

/**
 * A copy of a passage (its cores copied too), made as a literal like every passage, not by
 * spreading: objects of another hidden class would make V8 throw away code optimised for these.
 */
export function copyPassage(p: Passage): Passage {
  return {
    docNo: p.docNo,
    qs: p.qs,
    qe: p.qe,
    ss: p.ss,
    se: p.se,
    exact: p.exact,
    fuzzy: p.fuzzy,
    diagonal: p.diagonal,
    cores: p.cores ? [...p.cores] : undefined,
  };
}

/** An exact-stage passage kept inside a larger passage: input [qs, qe) against source [ss, se). */
export type Core = { qs: number; qe: number; ss: number; se: number; diagonal: boolean };

/** Seeds are packed as sourcePosition * SEED_Q + inputPosition (exact in a float64 up to 2^27 source characters). */
export const SEED_Q = 2 ** 26;

/**
 * Maximal exact runs of at least `minRun` characters between input `q` and source `s`, grown from
 * seeds: pairs (input position, source position) where a k-gram of the input has the hash of a
 * fingerprint the index stored for the source. Every shared run of `minRun` characters holds such a
 * pair (the winnowing guarantee), and a seed grows left and right as far as the characters agree,
 * so each run is found whole from any of its seeds. A seed whose k characters differ (a hash
 * collision) is dropped; seeds inside a run already grown on the same diagonal are skipped.
 *
 * @param seeds packed pairs (see {@link SEED_Q}), in any order; sorted in place.
 */
export function extendSeeds(
  q: Uint32Array,
  s: Uint32Array,
  seeds: Float64Array,
  docNo: number,
  k: number,
  minRun: number,
): Passage[] {
  seeds.sort();
  const runs: Passage[] = [];
  // Per diagonal (i - j), the input end of the last extended run. Seeds come in source order, so
  // along one diagonal they come in input order too.
  const diagEnd = new Map<number, number>();
  for (let x = 0; x < seeds.length; x++) {
    const packed = seeds[x]!;
    const j = Math.floor(packed / SEED_Q);
    const i = packed - j * SEED_Q;
    const d = i - j;
    const covered = diagEnd.get(d);
    if (covered !== undefined && covered > i) continue;
    if (i + k > q.length || j + k > s.length) continue;
    let ok = true;
    for (let t = 0; t < k; t++) {
      if (q[i + t] !== s[j + t]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    let a = i;
    let b = j;
    while (a > 0 && b > 0 && q[a - 1] === s[b - 1]) {
      a--;
      b--;
    }
    let e = i + k;
    let f = j + k;
    while (e < q.length && f < s.length && q[e] === s[f]) {
      e++;
      f++;
    }
    diagEnd.set(d, e);
    if (e - a >= minRun) {
      runs.push({
        docNo,
        qs: a,
        qe: e,
        ss: b,
        se: f,
        exact: e - a,
        fuzzy: 0,
        diagonal: true,
        cores: undefined,
      });
    }
  }
  runs.sort((x, y) => x.qs - y.qs || y.qe - x.qe);
  // Drop runs contained in an earlier one (repeats in the source give parallel diagonals).
  const out: Passage[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && r.qe <= last.qe) continue;
    out.push(r);
  }
  return out;
}

/**
 * Merge passages of one source, sorted by input start, into larger passages: two merge when the
 * input gap is at most `gap` characters and their source ranges lie at most
 * `gap + max(slack, length of both pieces)` apart: sentences shuffled inside a copied passage (or a
 * sentence left out of it) lie within that passage's length of each other in the source, so the
 * whole passage joins into one.
 */
export function mergePassages(passages: readonly Passage[], gap: number, slack: number): Passage[] {
  const sorted = [...passages].sort((x, y) => x.qs - y.qs || y.qe - x.qe);
  const out: Passage[] = [];
  for (const p of sorted) {
    const cur = out[out.length - 1];
    if (cur) {
      const qGap = p.qs - cur.qe;
      const sGap = Math.max(p.ss, cur.ss) - Math.min(p.se, cur.se);
      const reorderReach = Math.max(slack, cur.qe - cur.qs + (p.qe - p.qs));
      if (qGap <= gap && sGap <= gap + reorderReach) {
        const overlap = Math.max(0, cur.qe - p.qs);
        const sameDiagonal = cur.diagonal && p.diagonal && p.qs - p.ss === cur.qs - cur.ss;
        cur.exact += Math.max(0, p.exact - overlap);
        cur.fuzzy += p.fuzzy;
        cur.qe = Math.max(cur.qe, p.qe);
        cur.ss = Math.min(cur.ss, p.ss);
        cur.se = Math.max(cur.se, p.se);
        cur.diagonal = sameDiagonal && qGap <= 0;
        if (p.cores) cur.cores = [...(cur.cores ?? []), ...p.cores].sort((x, y) => x.qs - y.qs);
        continue;
      }
    }
    out.push(copyPassage(p));
  }
  return out;
}
