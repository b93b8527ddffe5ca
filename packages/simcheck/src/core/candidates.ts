import type { Options } from './options.ts';
import type { Postings } from './types.ts';

// Candidate documents of a check (check.ts, the pipeline's "candidates from the index" step): the
// greedy weighted coverage of the input's fingerprints.

/** Documents kept for the greedy choice: maxCandidates × this many, by total weight. */
const HEAP_FACTOR = 10;

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
