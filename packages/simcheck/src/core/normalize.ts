/**
 * Normalisation for fingerprinting and alignment, keeping a map back to the original text.
 *
 * Each original code point becomes zero or more normalised characters:
 * - NFKC (full-width Ａ１ -> A1, compatibility ideographs, circled digits ...),
 * - Latin lower-cased,
 * - traditional -> simplified, character by character (opencc-js t -> cn tables),
 * - everything that is not a letter or a digit (punctuation, symbols, spaces, line breaks) dropped,
 * - a run of Latin letters and digits (a word, a number: "Navier", "ESBLs", "2019") becomes ONE
 *   normalised unit, as word processors count it; otherwise an English term of 13 letters would count
 *   as 13 copied characters.
 *
 * Dropping all whitespace is what repairs PDF artefacts such as 研 究 方 法 or a line break in the
 * middle of a sentence; dropping punctuation makes a full-width/half-width comma swap invisible.
 * Conversion is per character rather than per phrase so that the offset map stays one-to-one and the
 * same function applied to the library and to the input always agrees.
 */
import * as OpenCCPreset from 'opencc-js/preset/t2cn';

export type NormalizedText = {
  /** Normalised characters as code points. */
  readonly codes: Uint32Array;
  /** For normalised character i, the UTF-16 offset in the original text where its source code point starts. */
  readonly start: Int32Array;
  /** ... and where it ends (exclusive). */
  readonly end: Int32Array;
  /** Length of the original text in UTF-16 units. */
  readonly originalLength: number;
  /** The original text. */
  readonly original: string;
};

/** Codes at or above this value stand for a whole Latin word or number (never a code point). */
export const WORD_TOKEN_BASE = 0x110000;
const WORD_TOKEN_RANGE = 0xffffffff - WORD_TOKEN_BASE;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

let t2s: Uint32Array | undefined;

type DictPair = readonly [string, string];
type Preset = { from: Record<string, readonly DictPair[]>; to: Record<string, readonly DictPair[]> };

/** Parse an OpenCC character dictionary ("src dst[ alt]|src dst|...") into table (BMP sources only). */
function applyCharDict(table: Uint32Array, dict: string, compose: boolean): void {
  for (const entry of dict.split('|')) {
    const sp = entry.indexOf(' ');
    if (sp <= 0) continue;
    const src = entry.codePointAt(0)!;
    if (src > 0xffff || String.fromCodePoint(src).length !== sp) continue;
    const dst = entry.codePointAt(sp + 1)!;
    if (dst === src) continue;
    // Variant tables run first: chain them into the traditional -> simplified step.
    table[src] = compose && table[dst] ? table[dst]! : dst;
  }
}

/**
 * Per-character traditional -> simplified table over the BMP (0 = unchanged), built once from
 * OpenCC's character dictionaries (opencc-js): Taiwan and Hong Kong variant forms -> OpenCC
 * traditional (TWVariantsRev, HKVariantsRev) -> simplified (TSCharacters). Phrase dictionaries are
 * deliberately not used (see the module comment).
 */
function getT2sTable(): Uint32Array {
  if (t2s) return t2s;
  const preset = OpenCCPreset as unknown as Preset;
  const table = new Uint32Array(0x10000);
  const ts = preset.to.cn?.[0]?.[1];
  if (ts) applyCharDict(table, ts, false);
  for (const region of ['tw', 'hk']) {
    const variants = preset.from[region]?.[0]?.[1];
    if (!variants) continue;
    for (const entry of variants.split('|')) {
      const sp = entry.indexOf(' ');
      if (sp <= 0) continue;
      const src = entry.codePointAt(0)!;
      const dst = entry.codePointAt(sp + 1)!;
      if (src > 0xffff || src === dst || table[src]) continue;
      const simplified = dst <= 0xffff && table[dst] ? table[dst]! : dst;
      if (simplified !== src) table[src] = simplified;
    }
  }
  t2s = table;
  return table;
}

const slowCache = new Map<number, readonly number[]>();
const letterOrDigit = /[\p{L}\p{N}]/u;

/** Normalised code points for one non-ASCII, non-CJK code point (cached). */
function normalizeSlow(cp: number, table: Uint32Array): readonly number[] {
  const cached = slowCache.get(cp);
  if (cached) return cached;
  const out: number[] = [];
  const nfkc = String.fromCodePoint(cp).normalize('NFKC').toLowerCase();
  for (const ch of nfkc) {
    if (!letterOrDigit.test(ch)) continue;
    let c = ch.codePointAt(0)!;
    if (c < 0x10000 && table[c]) c = table[c]!;
    out.push(c);
  }
  const frozen = Object.freeze(out);
  slowCache.set(cp, frozen);
  return frozen;
}

/**
 * What normalizeSlow gives each BMP code point, once known: 0 not yet seen, 1 dropped, 2 several
 * characters (use normalizeSlow), otherwise the single normalised code point + 3. Punctuation such
 * as ，。、（）“” is in every sentence: this spares it the map lookup.
 */
const bmpSlow = new Uint32Array(0x10000);

function normalizeBmp(cp: number, table: Uint32Array): number {
  let v = bmpSlow[cp]!;
  if (v === 0) {
    const out = normalizeSlow(cp, table);
    v = out.length === 0 ? 1 : out.length === 1 ? out[0]! + 3 : 2;
    bmpSlow[cp] = v;
  }
  return v;
}

/** The output arrays of normalizeText. */
type Out = { codes: Uint32Array; start: Int32Array; end: Int32Array };

const newOut = (size: number): Out => ({
  codes: new Uint32Array(size),
  start: new Int32Array(size),
  end: new Int32Array(size),
});

/**
 * Short texts (a check normalises every candidate's text: hundreds of them) are written into shared
 * chunks of this many slots and handed out as views, one after the other, never overwritten: three
 * array allocations per text cost more than normalising it. A chunk is freed with its last view.
 */
const CHUNK_SLOTS = 1 << 18;
const SHORT_TEXT = 1 << 13;
let chunk: Out | undefined;
let chunkUsed = 0;

const isWordChar = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);

/**
 * Normalise `text` (see the module comment). Linear time; no allocation per character. One loop
 * without closures: Chinese characters, the bulk of every text, take the first branch.
 */
export function normalizeText(text: string): NormalizedText {
  const table = getT2sTable();
  const n = text.length;
  // Output slots [base, base + m) of `out`; room for one slot per unit still to come (see below).
  let out: Out;
  let base = 0;
  if (n <= SHORT_TEXT) {
    if (!chunk || chunkUsed + n > CHUNK_SLOTS) {
      chunk = newOut(CHUNK_SLOTS);
      chunkUsed = 0;
    }
    out = chunk;
    base = chunkUsed;
  } else out = newOut(n);
  let { codes, start, end } = out;
  let m = 0;
  // The open Latin word: its FNV-1a hash, while the previous unit is a word ending right here.
  let wordHash = 0;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c >= 0x4e00 && c <= 0x9fff) {
      // CJK unified ideographs: NFKC is the identity here; only t -> s applies.
      const at = base + m++;
      codes[at] = table[c] || c;
      start[at] = i;
      end[at] = i + 1;
      i++;
      continue;
    }
    // One code point, to zero or more normalised characters: `single`, or `several`.
    let width = 1;
    let single = -1;
    let several: readonly number[] | undefined;
    if (c < 0x80) {
      // ASCII: digits and letters (lower-cased) kept, the rest dropped.
      if (isWordChar(c)) single = c;
      else if (c >= 0x41 && c <= 0x5a) single = c + 32;
    } else if (c < 0xd800 || c > 0xdfff) {
      const v = normalizeBmp(c, table);
      if (v > 2) single = v - 3;
      else if (v === 2) several = normalizeSlow(c, table);
    } else {
      let cp = c;
      if (c <= 0xdbff && i + 1 < n) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      several = normalizeSlow(cp, table);
    }
    const count = several ? several.length : single >= 0 ? 1 : 0;
    const need = m + count + (n - i - width);
    if (base + need > codes.length) {
      // A character that expands (NFKC of ㍿, ﷺ ...): the text moves to arrays of its own.
      const bigger = newOut(need * 2 + 16);
      bigger.codes.set(codes.subarray(base, base + m));
      bigger.start.set(start.subarray(base, base + m));
      bigger.end.set(end.subarray(base, base + m));
      out = bigger;
      ({ codes, start, end } = out);
      base = 0;
    }
    for (let x = 0; x < count; x++) {
      let o = several ? several[x]! : single;
      if (isWordChar(o)) {
        // A Latin letter or digit: it joins the word that ends right here, or opens one.
        const last = base + m - 1;
        if (m > 0 && codes[last]! >= WORD_TOKEN_BASE && end[last] === i) {
          wordHash = Math.imul(wordHash ^ o, FNV_PRIME) >>> 0;
          codes[last] = WORD_TOKEN_BASE + (wordHash % WORD_TOKEN_RANGE);
          end[last] = i + width;
          continue;
        }
        wordHash = Math.imul(FNV_OFFSET ^ o, FNV_PRIME) >>> 0;
        o = WORD_TOKEN_BASE + (wordHash % WORD_TOKEN_RANGE);
      }
      const at = base + m++;
      codes[at] = o;
      start[at] = i;
      end[at] = i + width;
    }
    i += width;
  }
  if (out === chunk) chunkUsed = base + m;
  return {
    codes: codes.subarray(base, base + m),
    start: start.subarray(base, base + m),
    end: end.subarray(base, base + m),
    originalLength: n,
    original: text,
  };
}

/** Index of the first normalised character whose original start is ≥ `offset` (binary search). */
export function toNormalizedIndex(norm: NormalizedText, offset: number): number {
  let lo = 0;
  let hi = norm.start.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (norm.start[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Original UTF-16 range [start, end) covered by normalised characters [from, to). */
export function toOriginalRange(norm: NormalizedText, from: number, to: number): [number, number] {
  if (to <= from) {
    const at = from < norm.start.length ? norm.start[from]! : norm.originalLength;
    return [at, at];
  }
  return [norm.start[from]!, norm.end[to - 1]!];
}

/** The normalised characters [from, to) as a string (a Latin word is written out, space separated). */
export function sliceNormalized(norm: NormalizedText, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) {
    const c = norm.codes[i]!;
    if (c >= WORD_TOKEN_BASE)
      s += ` ${norm.original.slice(norm.start[i]!, norm.end[i]!).normalize('NFKC').toLowerCase()} `;
    else s += String.fromCodePoint(c);
  }
  return s;
}
