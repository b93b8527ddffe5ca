/**
 * The disguises students use, applied to a copied passage. Each returns the disguised text; the
 * case's ground truth is then the whole inserted string against the whole source passage.
 */
import { readFileSync } from 'node:fs';
import { cut } from 'jieba-wasm';
import * as OpenCC from 'opencc-js';
import { DATA_DIR } from './io.ts';
import type { Rng } from './prng.ts';
import { isCjk, splitSentences } from './text.ts';

export type SynonymTable = Map<string, string[]>;

/**
 * 同义词词林扩展版 (HIT SCIR, research use only — evaluation and tuning, never shipped): only '='
 * lines (true synonyms), only words of two or more characters.
 */
export function loadSynonyms(path = `${DATA_DIR}synonyms/cilin_ext.txt`): SynonymTable {
  const table: SynonymTable = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const parts = line.trim().split(/\s+/u);
    const code = parts[0];
    if (!code?.endsWith('=')) continue;
    const words = [...new Set(parts.slice(1).filter((w) => Array.from(w).length >= 2))];
    if (words.length < 2) continue;
    for (const w of words) {
      const others = words.filter((o) => o !== w);
      const prev = table.get(w);
      table.set(w, prev ? [...new Set([...prev, ...others])] : others);
    }
  }
  return table;
}

export interface SynonymResult {
  text: string;
  words: number;
  replaced: number;
}

/** Segment with jieba and replace each word found in the table with a random synonym, with probability `rate`. */
export function substituteSynonyms(text: string, rng: Rng, table: SynonymTable, rate: number): SynonymResult {
  const tokens = cut(text, true);
  let replaced = 0;
  let words = 0;
  const out = tokens.map((tok) => {
    if (!Array.from(tok).some((ch) => isCjk(ch.codePointAt(0)!))) return tok;
    words++;
    const syn = table.get(tok);
    if (syn && syn.length > 0 && rng.chance(rate)) {
      replaced++;
      return rng.pick(syn);
    }
    return tok;
  });
  return { text: out.join(''), words, replaced };
}

/** Shuffle the sentences of a passage (at least 3) into an order different from the original. */
export function reorderSentences(text: string, rng: Rng): string | null {
  const sentences = splitSentences(text);
  if (sentences.length < 3) return null;
  const order = sentences.map((_, i) => i);
  for (let attempt = 0; attempt < 10; attempt++) {
    rng.shuffle(order);
    if (order.some((v, i) => v !== i)) return order.map((i) => sentences[i]).join('');
  }
  return null;
}

let toTraditional: ((s: string) => string) | undefined;
/** Simplified → traditional with OpenCC (cn → t). */
export function traditional(text: string): string {
  const convert = toTraditional ?? OpenCC.Converter({ from: 'cn', to: 't' });
  toTraditional = convert;
  return convert(text);
}

/** Every printable ASCII character to its full-width form (NFKC maps them back). */
export function fullWidth(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x21 && c <= 0x7e) out += String.fromCodePoint(c + 0xfee0);
    else if (c === 0x20) out += '\u3000';
    else out += ch;
  }
  return out;
}

export function asciiAlnumCount(text: string): number {
  let n = 0;
  for (const ch of text) if (/[0-9A-Za-z]/.test(ch)) n++;
  return n;
}

/**
 * What PDF text extraction does to Chinese: a line break every 18–40 characters (the line width),
 * now and then a space between two characters, and sometimes a blank line (a page break).
 */
export function pdfBreak(text: string, rng: Rng): string {
  const chars = Array.from(text);
  let out = '';
  let line = 0;
  let width = rng.int(18, 40);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    out += ch;
    line++;
    if (i === chars.length - 1) break;
    if (line >= width) {
      out += rng.chance(0.1) ? '\n\n' : rng.chance(0.2) ? ' \n' : '\n';
      line = 0;
      width = rng.int(18, 40);
    } else if (isCjk(ch.codePointAt(0)!) && rng.chance(0.05)) {
      out += rng.chance(0.8) ? ' ' : '  ';
    }
  }
  return out;
}
