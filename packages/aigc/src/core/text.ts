/** Text helpers of the detector: paragraphs with code-point offsets, sentences, clauses, counting. */

/** A line of the input with its code-point range (end exclusive) and its text. */
export interface Line {
  start: number;
  end: number;
  text: string;
}

const SENTENCE_END = /[。！？!?；;]+|\n+/u;
const CLAUSE_END = /[。！？!?；;，,、：:]+|\n+/u;

function isHan(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff);
}

/** Han characters, Latin letters and digits: what a reader counts as text (not spaces or punctuation). */
export function countContentChars(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (isHan(cp) || /[\p{L}\p{N}]/u.test(ch)) n++;
  }
  return n;
}

export function countHan(text: string): number {
  let n = 0;
  for (const ch of text) if (isHan(ch.codePointAt(0)!)) n++;
  return n;
}

/** Lines of `text` (split at '\n') with code-point offsets; '\r' is kept out of the range. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let cp = 0;
  let start = 0;
  let buf = '';
  for (const ch of text) {
    if (ch === '\n') {
      const trimmed = buf.endsWith('\r') ? buf.slice(0, -1) : buf;
      lines.push({ start, end: start + [...trimmed].length, text: trimmed });
      buf = '';
      cp++;
      start = cp;
      continue;
    }
    buf += ch;
    cp++;
  }
  const trimmed = buf.endsWith('\r') ? buf.slice(0, -1) : buf;
  lines.push({ start, end: start + [...trimmed].length, text: trimmed });
  return lines;
}

function pieceLengths(text: string, separator: RegExp): number[] {
  return text
    .split(new RegExp(separator.source, 'gu'))
    .map(countContentChars)
    .filter((n) => n > 0);
}

/** Lengths (content characters) of the sentences of a text. */
export function sentenceLengths(text: string): number[] {
  return pieceLengths(text, SENTENCE_END);
}

/** Lengths of the clauses (pieces between any of 。！？；，、：). */
export function clauseLengths(text: string): number[] {
  return pieceLengths(text, CLAUSE_END);
}

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Coefficient of variation (standard deviation over mean); 0 for fewer than two values. */
export function coefficientOfVariation(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  if (m === 0) return 0;
  let v = 0;
  for (const x of xs) v += (x - m) ** 2;
  return Math.sqrt(v / xs.length) / m;
}

/** Occurrences of any of `words` in `text` (non-overlapping per word). */
export function countOccurrences(text: string, words: readonly string[]): number {
  let n = 0;
  for (const w of words) {
    let i = text.indexOf(w);
    while (i !== -1) {
      n++;
      i = text.indexOf(w, i + w.length);
    }
  }
  return n;
}

/**
 * The character sequence the n-gram features see: NFKC, every Latin letter 'a', every digit '0',
 * whitespace dropped, everything else (Han, punctuation) kept. Letters and digits are folded so that
 * the model learns style, not topics spelled in numbers or English.
 */
export function toSymbols(text: string): string[] {
  const out: string[] = [];
  for (const ch of text.normalize('NFKC')) {
    if (/\s/u.test(ch)) continue;
    if (/[0-9]/.test(ch)) out.push('0');
    else if (/[A-Za-z]/.test(ch)) out.push('a');
    else out.push(ch);
  }
  return out;
}

/** 32-bit FNV-1a over UTF-16 code units; the hash of the n-gram features (stable across versions). */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
