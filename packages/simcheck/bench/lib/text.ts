/** Text helpers that work in Unicode code points (the offsets of the engine contract). */

export function cpLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

export function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0)!);
  return out;
}

/** Slice by code-point offsets. */
export function cpSlice(text: string, start: number, end?: number): string {
  return Array.from(text).slice(start, end).join('');
}

const TERMINATORS = new Set(['。', '！', '？', '；', '!', '?', ';']);

/**
 * Split into sentences, each keeping its terminator. The corpus writes '.' and ',' half-width inside
 * Chinese text, so '.' ends a sentence unless it sits between digits or Latin letters (3.5, e.g.).
 */
export function splitSentences(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    cur += ch;
    let end = TERMINATORS.has(ch);
    if (ch === '.') {
      const prev = chars[i - 1] ?? '';
      const nxt = chars[i + 1] ?? '';
      end = !(/[0-9A-Za-z]/.test(prev) && /[0-9A-Za-z]/.test(nxt));
    }
    if (end) {
      if (cur.trim().length > 0) out.push(cur);
      cur = '';
    }
  }
  if (cur.trim().length > 0) out.push(cur);
  return out;
}

/** Light normalisation used only by the generator's leak filter: NFKC, lower case, no whitespace. */
export function filterNormalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');
}

export const WINDOW = 13;

/**
 * 53-bit hash of every WINDOW-code-point window of `cps` (two FNV-1a lanes). Returns one number per
 * window start.
 */
export function windowHashes(cps: ArrayLike<number>, window = WINDOW): number[] {
  const out: number[] = [];
  for (let i = 0; i + window <= cps.length; i++) out.push(windowHash(cps, i, window));
  return out;
}

export function windowHash(cps: ArrayLike<number>, start: number, window = WINDOW): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let k = start; k < start + window; k++) {
    const c = cps[k]!;
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0) * 2097152 + ((h2 >>> 0) & 0x1fffff);
}

export function isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2ffff);
}
