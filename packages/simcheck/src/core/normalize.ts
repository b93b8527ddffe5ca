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

/** Normalise `text` (see the module comment). Linear time; no allocation per character for CJK/ASCII. */
export function normalizeText(text: string): NormalizedText {
  const table = getT2sTable();
  const n = text.length;
  let codes = new Uint32Array(n);
  let start = new Int32Array(n);
  let end = new Int32Array(n);
  let m = 0;
  // The open Latin word: its FNV-1a hash, while the previous unit is a word ending right here.
  let wordHash = 0;
  const grow = () => {
    const size = codes.length * 2 + 16;
    const c2 = new Uint32Array(size);
    c2.set(codes);
    codes = c2;
    const s2 = new Int32Array(size);
    s2.set(start);
    start = s2;
    const e2 = new Int32Array(size);
    e2.set(end);
    end = e2;
  };
  const emit = (c: number, from: number, to: number) => {
    const isWordChar = (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
    if (isWordChar) {
      if (m > 0 && codes[m - 1]! >= WORD_TOKEN_BASE && end[m - 1] === from) {
        wordHash = Math.imul(wordHash ^ c, FNV_PRIME) >>> 0;
        codes[m - 1] = WORD_TOKEN_BASE + (wordHash % WORD_TOKEN_RANGE);
        end[m - 1] = to;
        return;
      }
      wordHash = Math.imul(FNV_OFFSET ^ c, FNV_PRIME) >>> 0;
      c = WORD_TOKEN_BASE + (wordHash % WORD_TOKEN_RANGE);
    }
    if (m >= codes.length) grow();
    codes[m] = c;
    start[m] = from;
    end[m++] = to;
  };
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      // ASCII fast path: digits and letters (lower-cased) kept, the rest dropped.
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a)) emit(c, i, i + 1);
      else if (c >= 0x41 && c <= 0x5a) emit(c + 32, i, i + 1);
      i++;
      continue;
    }
    if (c >= 0x4e00 && c <= 0x9fff) {
      // CJK unified ideographs: NFKC is the identity here; only t -> s applies.
      if (m >= codes.length) grow();
      codes[m] = table[c] || c;
      start[m] = i;
      end[m++] = i + 1;
      i++;
      continue;
    }
    if (c < 0xd800 || c > 0xdfff) {
      const v = normalizeBmp(c, table);
      if (v > 2) emit(v - 3, i, i + 1);
      else if (v === 2) for (const o of normalizeSlow(c, table)) emit(o, i, i + 1);
      i++;
      continue;
    }
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    for (const o of normalizeSlow(cp, table)) emit(o, i, i + width);
    i += width;
  }
  return {
    codes: codes.subarray(0, m),
    start: start.subarray(0, m),
    end: end.subarray(0, m),
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
