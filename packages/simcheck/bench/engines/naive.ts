/**
 * The naive baseline: a hash table of every 13-character window of the library's raw text (no
 * normalisation), reporting maximal runs of matching windows as verbatim matches.
 *
 * Layout (typed arrays, 8 bytes per library character, also on disk):
 *   text  Uint16Array  the library as code points (an astral code point is stored as 0xFFFF)
 *   next  Int32Array   chain of window starts with the same bucket, -1 ends a chain
 *   head  Int32Array   bucket → last window start (2^k buckets, k = ceil(log2(windows / 2)))
 * A lookup walks the bucket's chain and compares the 13 characters, so matches are exact.
 * A window found more than MAX_HITS times keeps only its first MAX_HITS occurrences.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { type LibraryRecord, readJsonLines } from '../lib/io.ts';
import type { BenchEngine, Checker, CheckMatch, CheckOutput } from './types.ts';

export const NAIVE_WINDOW = 13;
const MAX_HITS = 1000;
const BASE = 0x01000193;
let BASE_POW = 1;
for (let i = 0; i < NAIVE_WINDOW - 1; i++) BASE_POW = Math.imul(BASE_POW, BASE);

function toUnits(text: string): Uint16Array {
  const out = new Uint16Array(text.length);
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out[n++] = Math.min(c, 0xffff);
  }
  return out.subarray(0, n);
}

function bucketOf(h: number, shift: number): number {
  return Math.imul(h, 0x9e3779b1) >>> shift;
}

interface NaiveIndex {
  text: Uint16Array;
  next: Int32Array;
  head: Int32Array;
  shift: number;
  /** start of each document in `text`, plus the total length at the end */
  starts: Uint32Array;
  ids: string[];
}

export async function buildNaive(libraryPath: string): Promise<NaiveIndex> {
  let text = new Uint16Array(1 << 20);
  let length = 0;
  const startsList: number[] = [];
  const ids: string[] = [];
  for await (const rec of readJsonLines<LibraryRecord>(libraryPath)) {
    const units = toUnits(rec.text);
    if (length + units.length > text.length) {
      let cap = text.length * 2;
      while (cap < length + units.length) cap *= 2;
      const bigger = new Uint16Array(cap);
      bigger.set(text.subarray(0, length));
      text = bigger;
    }
    startsList.push(length);
    ids.push(String(rec.id));
    text.set(units, length);
    length += units.length;
  }
  text = text.slice(0, length);
  startsList.push(length);
  const starts = Uint32Array.from(startsList);
  let bits = 1;
  while (2 ** bits < Math.max(2, length / 2)) bits++;
  const head = new Int32Array(2 ** bits).fill(-1);
  const next = new Int32Array(length).fill(-1);
  const shift = 32 - bits;
  for (let d = 0; d < ids.length; d++) {
    const s = starts[d]!;
    const e = starts[d + 1]!;
    if (e - s < NAIVE_WINDOW) continue;
    let h = 0;
    for (let p = s; p < s + NAIVE_WINDOW; p++) h = (Math.imul(h, BASE) + text[p]!) | 0;
    for (let p = s; ; p++) {
      const b = bucketOf(h, shift);
      next[p] = head[b]!;
      head[b] = p;
      if (p + NAIVE_WINDOW >= e) break;
      h = (Math.imul(h - Math.imul(text[p]!, BASE_POW), BASE) + text[p + NAIVE_WINDOW]!) | 0;
    }
  }
  return { text, next, head, shift, starts, ids };
}

function writeArray(path: string, arr: ArrayBufferView): void {
  const fd = openSync(path, 'w');
  const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
  const CHUNK = 1 << 30;
  for (let off = 0; off < bytes.length; off += CHUNK) {
    const part = bytes.subarray(off, Math.min(bytes.length, off + CHUNK));
    let done = 0;
    while (done < part.length) done += writeSync(fd, part, done, part.length - done);
  }
  closeSync(fd);
}

function readArray<T>(path: string, make: (bytes: number) => T & ArrayBufferView): T {
  const size = statSync(path).size;
  const arr = make(size);
  const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
  const fd = openSync(path, 'r');
  const CHUNK = 1 << 30;
  let off = 0;
  while (off < size) {
    const n = readSync(fd, bytes, off, Math.min(CHUNK, size - off), off);
    if (n === 0) break;
    off += n;
  }
  closeSync(fd);
  return arr;
}

export function saveNaive(index: NaiveIndex, dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeArray(join(dir, 'text.u16'), index.text);
  writeArray(join(dir, 'next.i32'), index.next);
  writeArray(join(dir, 'head.i32'), index.head);
  writeArray(join(dir, 'starts.u32'), index.starts);
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ shift: index.shift, ids: index.ids }));
}

export function loadNaive(dir: string): NaiveIndex {
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { shift: number; ids: string[] };
  return {
    text: readArray(join(dir, 'text.u16'), (b) => new Uint16Array(b / 2)),
    next: readArray(join(dir, 'next.i32'), (b) => new Int32Array(b / 4)),
    head: readArray(join(dir, 'head.i32'), (b) => new Int32Array(b / 4)),
    starts: readArray(join(dir, 'starts.u32'), (b) => new Uint32Array(b / 4)),
    shift: meta.shift,
    ids: meta.ids,
  };
}

function docOf(starts: Uint32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface Run {
  start: number;
  src: number;
}

export function checkNaive(index: NaiveIndex, input: string): CheckOutput {
  const q = toUnits(input);
  const n = q.length;
  const { text, next, head, shift, starts, ids } = index;
  const matches: CheckMatch[] = [];
  let active = new Map<number, Run>();
  const close = (run: Run, lastI: number, lastG: number) => {
    const d = docOf(starts, run.src);
    matches.push({
      start: run.start,
      end: lastI + NAIVE_WINDOW,
      sourceId: ids[d]!,
      sourceStart: run.src - starts[d]!,
      sourceEnd: lastG + NAIVE_WINDOW - starts[d]!,
      kind: 'verbatim',
    });
  };
  let h = 0;
  for (let p = 0; p < Math.min(n, NAIVE_WINDOW); p++) h = (Math.imul(h, BASE) + q[p]!) | 0;
  for (let i = 0; i + NAIVE_WINDOW <= n; i++) {
    if (i > 0) h = (Math.imul(h - Math.imul(q[i - 1]!, BASE_POW), BASE) + q[i + NAIVE_WINDOW - 1]!) | 0;
    const nextActive = new Map<number, Run>();
    let hits = 0;
    for (let g = head[bucketOf(h, shift)]!; g !== -1 && hits < MAX_HITS; g = next[g]!) {
      let k = 0;
      while (k < NAIVE_WINDOW && text[g + k] === q[i + k]) k++;
      if (k < NAIVE_WINDOW) continue;
      hits++;
      const prev = active.get(g - 1);
      if (prev) {
        active.delete(g - 1);
        nextActive.set(g, prev);
      } else nextActive.set(g, { start: i, src: g });
    }
    for (const [g, run] of active) close(run, i - 1, g);
    active = nextActive;
  }
  const lastI = n - NAIVE_WINDOW;
  for (const [g, run] of active) close(run, lastI, g);
  matches.sort((a, b) => a.start - b.start || a.end - b.end);
  // union of flagged characters
  let copied = 0;
  let curS = -1;
  let curE = -1;
  for (const m of matches) {
    if (m.start > curE) {
      copied += curE - curS;
      curS = m.start;
      curE = m.end;
    } else if (m.end > curE) curE = m.end;
  }
  copied += curE - curS;
  return {
    chars: n,
    copiedChars: copied,
    ratio: n === 0 ? 0 : copied / n,
    ratioExcludingQuotes: n === 0 ? 0 : copied / n,
    matches,
  };
}

export const naiveEngine: BenchEngine = {
  name: 'naive',
  async build(libraryPath, indexDir) {
    saveNaive(await buildNaive(libraryPath), indexDir);
  },
  async open(indexDir): Promise<Checker> {
    const index = loadNaive(indexDir);
    return {
      check: async (text) => checkNaive(index, text),
      close: async () => {},
    };
  },
};
