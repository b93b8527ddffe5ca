import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { getIndexFingerprints } from '../core/document.ts';
import type { IndexParams, LibraryDocument } from '../core/types.ts';
import type { Queryable } from './pg.ts';

// Writing fingerprints into simcheck_fingerprints (pg.ts's addDocuments): one binary COPY FROM STDIN
// on a `pg` client, multi-row INSERTs where COPY is not available (PGlite).

/** Rows per multi-row INSERT where COPY is not available (PGlite). */
const FP_BATCH = 50_000;
/** Rows per chunk of binary COPY data (34 bytes each). */
const COPY_ROWS = 16_384;

/** A `pg` client (not PGlite): it can take COPY FROM STDIN. */
export function canCopy(q: Queryable): boolean {
  const connection = (q as { connection?: { sendCopyFromChunk?: unknown } }).connection;
  return typeof connection?.sendCopyFromChunk === 'function';
}

/** Binary COPY: signature `PGCOPY\n\377\r\n\0`, flags 0, header extension length 0. */
const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]);
const ROW_BYTES = 2 + (4 + 8) + (4 + 8) + (4 + 4);

/**
 * The fingerprints of `list` into `simcheck_fingerprints` through one binary `COPY FROM STDIN`,
 * computed document by document as the stream asks for more. Returns each document's characters.
 */
export async function copyFingerprints(
  q: Queryable,
  list: readonly LibraryDocument[],
  docNos: readonly number[],
  params: IndexParams,
): Promise<number[]> {
  const chars: number[] = [];
  function* chunks(): Generator<Buffer> {
    yield COPY_HEADER;
    let buf = Buffer.allocUnsafe(COPY_ROWS * ROW_BYTES);
    let at = 0;
    for (let i = 0; i < list.length; i++) {
      const f = getIndexFingerprints(list[i]!.text, params);
      chars.push(f.chars);
      const docNo = docNos[i]!;
      for (let j = 0; j < f.hashes.length; j++) {
        buf.writeInt16BE(3, at);
        buf.writeInt32BE(8, at + 2);
        buf.writeUInt32BE(0, at + 6);
        buf.writeUInt32BE(f.hashes[j]!, at + 10);
        buf.writeInt32BE(8, at + 14);
        buf.writeUInt32BE(Math.floor(docNo / 0x1_0000_0000), at + 18);
        buf.writeUInt32BE(docNo >>> 0, at + 22);
        buf.writeInt32BE(4, at + 26);
        buf.writeInt32BE(f.positions[j]!, at + 30);
        at += ROW_BYTES;
        if (at === buf.length) {
          yield buf;
          buf = Buffer.allocUnsafe(COPY_ROWS * ROW_BYTES);
          at = 0;
        }
      }
    }
    if (at > 0) yield buf.subarray(0, at);
    yield COPY_TRAILER;
  }
  const sink = (q as unknown as { query<T>(s: T): T }).query(
    copyFrom('COPY simcheck_fingerprints (hash, doc_no, pos) FROM STDIN (FORMAT binary)'),
  );
  await pipeline(Readable.from(chunks(), { objectMode: false }), sink);
  return chars;
}

/** The same through multi-row `INSERT ... SELECT FROM unnest(...)` (PGlite). */
export async function insertFingerprints(
  q: Queryable,
  list: readonly LibraryDocument[],
  docNos: readonly number[],
  params: IndexParams,
): Promise<number[]> {
  const chars: number[] = [];
  let hashes: number[] = [];
  let nos: number[] = [];
  let poss: number[] = [];
  const insert = async () => {
    if (hashes.length === 0) return;
    await q.query(
      'INSERT INTO simcheck_fingerprints (hash, doc_no, pos) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[])',
      [hashes, nos, poss],
    );
    hashes = [];
    nos = [];
    poss = [];
  };
  for (let i = 0; i < list.length; i++) {
    const f = getIndexFingerprints(list[i]!.text, params);
    chars.push(f.chars);
    for (let j = 0; j < f.hashes.length; j++) {
      hashes.push(f.hashes[j]!);
      nos.push(docNos[i]!);
      poss.push(f.positions[j]!);
    }
    if (hashes.length >= FP_BATCH) await insert();
  }
  await insert();
  return chars;
}
