/**
 * Fingerprinting by winnowing.
 *
 * Schleimer, Wilkerson, Aiken: "Winnowing: Local Algorithms for Document Fingerprinting",
 * SIGMOD 2003. Hash every k-gram of the normalised text, slide a window of w consecutive k-gram
 * hashes over them and select in each window the minimum hash (the rightmost one on ties: "robust
 * winnowing", §4.2), recording a position only when the selection changes. The paper's guarantee
 * (§3): any shared substring of length at least t = w + k - 1 contains a whole window, and a window
 * selects the same hash value wherever it occurs, so two texts that share a run of t characters
 * share at least one fingerprint. We want t = 13 (CNKI's rule), hence w = 13 - k + 1.
 *
 * The k-gram hash is a polynomial rolling hash modulo 2^32 (Karp-Rabin; one multiply-add per
 * character with Math.imul) passed through the MurmurHash3 finaliser so that the minimum chosen by
 * winnowing behaves like a random choice even for structured input.
 */

const BASE = 0x01000193; // FNV prime: odd, spreads bits well under multiplication mod 2^32

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of every k-gram: result[i] hashes codes[i .. i+k). Empty when codes.length < k. */
export function hashKgrams(codes: Uint32Array, k: number): Uint32Array {
  const n = codes.length - k + 1;
  if (n <= 0) return new Uint32Array(0);
  const out = new Uint32Array(n);
  let pow = 1; // BASE^(k-1) mod 2^32
  for (let j = 0; j < k - 1; j++) pow = Math.imul(pow, BASE);
  let h = 0;
  for (let j = 0; j < k; j++) h = (Math.imul(h, BASE) + codes[j]!) | 0;
  out[0] = fmix32(h);
  for (let i = 1; i < n; i++) {
    h = (Math.imul((h - Math.imul(codes[i - 1]!, pow)) | 0, BASE) + codes[i + k - 1]!) | 0;
    out[i] = fmix32(h);
  }
  return out;
}

export type Fingerprints = {
  /** Selected hash values, in position order. */
  readonly hashes: Uint32Array;
  /** Normalised start position of the k-gram of each selected hash. */
  readonly positions: Uint32Array;
};

/**
 * Robust winnowing over k-gram hashes with window w (O(n) with a monotone deque).
 * A sequence shorter than one window yields its single minimum.
 */
export function winnow(kgramHashes: Uint32Array, w: number): Fingerprints {
  const n = kgramHashes.length;
  if (n === 0) return { hashes: new Uint32Array(0), positions: new Uint32Array(0) };
  const win = Math.min(w, n);
  const deque = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const outPos: number[] = [];
  let last = -1;
  for (let i = 0; i < n; i++) {
    const h = kgramHashes[i]!;
    // Pop larger-or-equal hashes from the back so that the rightmost minimum survives ties.
    while (tail > head && kgramHashes[deque[tail - 1]!]! >= h) tail--;
    deque[tail++] = i;
    if (deque[head]! <= i - win) head++;
    if (i >= win - 1) {
      const pick = deque[head]!;
      if (pick !== last) {
        outPos.push(pick);
        last = pick;
      }
    }
  }
  const positions = Uint32Array.from(outPos);
  const hashes = new Uint32Array(positions.length);
  for (let i = 0; i < positions.length; i++) hashes[i] = kgramHashes[positions[i]!]!;
  return { hashes, positions };
}

/** k-gram hashes + winnowing in one call. */
export function fingerprint(codes: Uint32Array, k: number, w: number): Fingerprints {
  return winnow(hashKgrams(codes, k), w);
}
