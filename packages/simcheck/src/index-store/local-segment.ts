import fs from 'node:fs';
import path from 'node:path';
import { getIndexFingerprints } from '../core/document.ts';
import { SimcheckError } from '../core/errors.ts';
import { sortIndicesByKey, U32Builder } from '../core/sort.ts';
import type { IndexParams, LibraryDocument, LookupOptions, Postings } from '../core/types.ts';

// The files of the local index (local.ts describes the layout): manifest and segment types, the
// segment writer, positioned reads, atomic writes, and filtering postings as a lookup asks.

export const FORMAT = 'kyfw-simcheck-local';
export const VERSION = 1;
export const MAX_SEGMENTS = 4;
/** A segment is flushed when its batch reaches this many normalised characters. */
export const SEGMENT_CHARS = 24_000_000;
export const RECORD_BYTES = 12;
/** Buckets at most this many records apart are fetched with one read. */
export const COALESCE_RECORDS = 1024;

export type SegmentMeta = {
  name: string;
  documents: number;
  records: number;
  chars: number;
  bucketBits: number;
};

export type Manifest = {
  format: typeof FORMAT;
  version: number;
  params: IndexParams;
  nextDocNo: number;
  nextSegment: number;
  segments: SegmentMeta[];
};

export type DocsFile = {
  docNos: number[];
  ids: string[];
  titles: (string | null)[];
  chars: number[];
  /** Fingerprints stored per document. */
  fingerprints: number[];
};

export type Segment = {
  meta: SegmentMeta;
  dir: string;
  docNos: Uint32Array;
  ids: string[];
  titles: (string | null)[];
  chars: number[];
  fingerprints: number[] | undefined;
  directory: Uint32Array;
  textOffsets: Float64Array;
  /** The segment's postings records, when held in memory (see `memoryBytes`). */
  postings: Uint32Array | undefined;
  /**
   * With postings in memory: a bitmap of the hashes present (by their top `presenceBits` bits), so
   * that a lookup of a hash the segment does not have (most of a thesis's k-grams) costs one read.
   */
  presence: Uint32Array | undefined;
  presenceShift: number;
  postingsFd: number;
  textsFd: number;
  /** The segment's texts (UTF-8), when held in memory (see `memoryBytes`). */
  texts: Uint8Array | undefined;
};

export function readJson<T>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new SimcheckError('index_corrupt', `无法读取索引文件 ${file}`, { cause: error });
  }
}

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

export function readTyped(file: string): Uint8Array<ArrayBuffer> {
  const fd = fs.openSync(file, 'r');
  try {
    // Read into a fresh ArrayBuffer (offset 0) so typed views of any element size are allowed.
    return pread(fd, 0, fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
}

export function pread(fd: number, offset: number, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(length));
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, out, done, length - done, offset + done);
    if (n === 0) throw new SimcheckError('index_corrupt', '索引文件被截断');
    done += n;
  }
  return out;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function chooseBucketBits(records: number): number {
  return Math.min(24, Math.max(8, Math.ceil(Math.log2(Math.max(1, records) / 32))));
}

/** Write postings (given as parallel arrays already sorted by hash/docNo/pos) and their directory. */
export function buildDirectory(hashes: Uint32Array, bits: number): Uint32Array {
  const size = 2 ** bits;
  const dir = new Uint32Array(size + 1);
  const shift = 32 - bits;
  for (let i = 0; i < hashes.length; i++) dir[(hashes[i]! >>> shift) + 1]!++;
  for (let b = 1; b <= size; b++) dir[b]! += dir[b - 1]!;
  return dir;
}

export class SegmentWriter {
  readonly hashes = new U32Builder(1 << 16);
  readonly docNos = new U32Builder(1 << 16);
  readonly positions = new U32Builder(1 << 16);
  readonly docs: DocsFile = { docNos: [], ids: [], titles: [], chars: [], fingerprints: [] };
  readonly texts: Buffer[] = [];
  textBytes = 0;
  chars = 0;

  add(docNo: number, doc: LibraryDocument, params: IndexParams): number {
    const fp = getIndexFingerprints(doc.text, params);
    this.hashes.append(fp.hashes);
    this.docNos.fill(docNo, fp.hashes.length);
    this.positions.append(fp.positions);
    this.docs.docNos.push(docNo);
    this.docs.ids.push(doc.id);
    this.docs.titles.push(doc.title ?? null);
    this.docs.chars.push(fp.chars);
    this.docs.fingerprints.push(fp.hashes.length);
    const bytes = Buffer.from(doc.text, 'utf8');
    this.texts.push(bytes);
    this.textBytes += bytes.byteLength;
    this.chars += fp.chars;
    return fp.chars;
  }

  get documents(): number {
    return this.docs.ids.length;
  }

  /** Sort, write the segment directory and return its metadata. */
  write(root: string, name: string): SegmentMeta {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    const hashes = this.hashes.view();
    const order = sortIndicesByKey(hashes);
    const n = hashes.length;
    const records = new Uint32Array(n * 3);
    const sortedHashes = new Uint32Array(n);
    const docNos = this.docNos.view();
    const positions = this.positions.view();
    for (let r = 0; r < n; r++) {
      const i = order[r]!;
      sortedHashes[r] = hashes[i]!;
      records[r * 3] = hashes[i]!;
      records[r * 3 + 1] = docNos[i]!;
      records[r * 3 + 2] = positions[i]!;
    }
    const bits = chooseBucketBits(n);
    fs.writeFileSync(path.join(dir, 'postings.bin'), new Uint8Array(records.buffer, 0, records.byteLength));
    const directory = buildDirectory(sortedHashes, bits);
    fs.writeFileSync(path.join(dir, 'directory.bin'), new Uint8Array(directory.buffer));
    fs.writeFileSync(path.join(dir, 'texts.bin'), Buffer.concat(this.texts));
    const offsets = new Float64Array(this.texts.length + 1);
    let off = 0;
    this.texts.forEach((t, i) => {
      offsets[i] = off;
      off += t.byteLength;
    });
    offsets[this.texts.length] = off;
    fs.writeFileSync(path.join(dir, 'offsets.bin'), new Uint8Array(offsets.buffer));
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify(this.docs));
    return { name, documents: this.documents, records: n, chars: this.chars, bucketBits: bits };
  }
}

/** Membership test of a set of document numbers. */
export type DocSet = (docNo: number) => boolean;

/** A set of docNos as a bitmap (docNos are small, dense integers). */
export function docSet(docNos: readonly number[]): DocSet {
  let max = 0;
  for (const d of docNos) if (d > max) max = d;
  const bits = new Uint8Array(max + 1);
  for (const d of docNos) bits[d] = 1;
  return (d) => d <= max && bits[d] === 1;
}

/** Postings filtered as {@link LookupOptions} says (counts are over all live postings of a hash). */
export function filterPostings(
  p: Postings,
  maxPostings: number | undefined,
  only: DocSet | undefined,
): Postings {
  if (maxPostings === undefined && !only) return p;
  const outH = new U32Builder(p.hashes.length + 1);
  const outD = new U32Builder(p.hashes.length + 1);
  const outP = new U32Builder(p.hashes.length + 1);
  const frequent = new U32Builder(16);
  for (let i = 0; i < p.hashes.length; ) {
    const h = p.hashes[i]!;
    let j = i + 1;
    while (j < p.hashes.length && p.hashes[j] === h) j++;
    if (maxPostings !== undefined && j - i > maxPostings) frequent.push(h);
    else {
      for (let x = i; x < j; x++) {
        if (only && !only(p.docNos[x]!)) continue;
        outH.push(h);
        outD.push(p.docNos[x]!);
        outP.push(p.positions[x]!);
      }
    }
    i = j;
  }
  const out = { hashes: outH.view(), docNos: outD.view(), positions: outP.view() };
  return maxPostings === undefined ? out : { ...out, frequent: frequent.view() };
}
