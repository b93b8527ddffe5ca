import { Inflate } from 'fflate';
import { ExtractError } from './errors.ts';
import { detailMessages } from './messages.ts';

/**
 * A small zip reader for .docx that trusts nothing: it reads the central directory, refuses
 * archives with too many entries, and inflates only the parts asked for, in chunks, stopping as
 * soon as the output passes the entry's declared size or the shared decompression budget. So a
 * zip bomb costs at most `budget` bytes of work, and usually none (declared sizes are checked first).
 */

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Real .docx files have tens to a few thousand parts (one per image); more is an attack. */
export const maxZipEntries = 10_000;

const eocdSignature = 0x06054b50;
const zip64LocatorSignature = 0x07064b50;
const zip64EocdSignature = 0x06064b50;
const centralSignature = 0x02014b50;
const localSignature = 0x04034b50;

export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/**
 * Lists the entries from the central directory; throws 'broken', or 'too-large' past maxEntries
 * (sniffing passes Infinity: it only looks at names, and must still recognise a hostile .docx).
 */
export function readZipDirectory(bytes: Uint8Array, maxEntries = maxZipEntries): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  if (eocd < 0) throw broken('zip: no end of central directory');
  let count = view.getUint16(eocd + 10, true);
  let cdSize = view.getUint32(eocd + 12, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== zip64LocatorSignature)
      throw broken('zip64: no locator');
    const zip64Eocd = readUint64(view, locator + 8);
    if (zip64Eocd + 56 > bytes.length || view.getUint32(zip64Eocd, true) !== zip64EocdSignature) {
      throw broken('zip64: bad end of central directory');
    }
    count = readUint64(view, zip64Eocd + 32);
    cdSize = readUint64(view, zip64Eocd + 40);
    cdOffset = readUint64(view, zip64Eocd + 48);
  }
  if (count > maxEntries) throw new ExtractError('too-large', detailMessages.tooManyZipEntries);
  if (cdOffset + cdSize > bytes.length) throw broken('zip: central directory past end of file');

  const entries = new Map<string, ZipEntry>();
  const nameDecoder = new TextDecoder('utf-8');
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== centralSignature)
      throw broken('zip: bad central header');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let uncompressedSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > bytes.length) throw broken('zip: central header past end of file');
    const name = nameDecoder.decode(bytes.subarray(nameStart, extraStart));
    if (
      uncompressedSize === 0xffffffff ||
      compressedSize === 0xffffffff ||
      localHeaderOffset === 0xffffffff
    ) {
      const zip64 = readZip64Extra(view, extraStart, extraLength, {
        uncompressed: uncompressedSize === 0xffffffff,
        compressed: compressedSize === 0xffffffff,
        offset: localHeaderOffset === 0xffffffff,
      });
      uncompressedSize = zip64.uncompressed ?? uncompressedSize;
      compressedSize = zip64.compressed ?? compressedSize;
      localHeaderOffset = zip64.offset ?? localHeaderOffset;
    }
    // Names are compared case-sensitively as Office writes them, but a leading '/' is tolerated.
    entries.set(name.replace(/^\/+/, ''), {
      name,
      method,
      flags,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
    });
    at = next;
  }
  return entries;
}

/** Shared decompression allowance across the parts read from one archive. */
export class InflateBudget {
  remaining: number;
  constructor(bytes: number) {
    this.remaining = bytes;
  }
}

/** Inflates one entry; throws 'too-large' past the budget and 'broken' past the declared size. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget): Uint8Array {
  if (entry.flags & 0x0001) throw new ExtractError('encrypted');
  if (entry.uncompressedSize > budget.remaining)
    throw new ExtractError('too-large', detailMessages.decompressedTooLarge);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== localSignature)
    throw broken(`zip: bad local header for ${entry.name}`);
  const dataStart = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.length) throw broken(`zip: data of ${entry.name} past end of file`);
  const data = bytes.subarray(dataStart, dataEnd);

  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize)
      throw broken(`zip: stored ${entry.name} has two sizes`);
    budget.remaining -= data.length;
    return data;
  }
  if (entry.method !== 8) throw broken(`zip: ${entry.name} uses compression method ${entry.method}`);

  // Deflate cannot exceed about 1032:1; a header claiming more is forged.
  if (entry.uncompressedSize > data.length * 1100 + 1024)
    throw broken(`zip: ${entry.name} claims an impossible ratio`);
  const limit = entry.uncompressedSize;
  const chunks: Uint8Array[] = [];
  let written = 0;
  let finished = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.length > limit) {
      // Inflating past the declared size means the header lies: the classic zip-bomb trick.
      throw written + chunk.length > budget.remaining
        ? new ExtractError('too-large', detailMessages.decompressedTooLarge)
        : broken(`zip: ${entry.name} inflates past its declared size`);
    }
    chunks.push(chunk);
    written += chunk.length;
    if (final) finished = true;
  });
  // Small steps: one push of n compressed bytes can inflate to about 1032·n bytes before we see it.
  const step = 16 * 1024;
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let offset = 0; offset < data.length; offset += step) {
      inflater.push(data.subarray(offset, offset + step), offset + step >= data.length);
    }
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    throw broken(`zip: cannot inflate ${entry.name}`, error);
  }
  if (!finished || written !== limit) throw broken(`zip: ${entry.name} is truncated`);
  budget.remaining -= written;
  return concat(chunks, written);
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of up to 65535 bytes, at the very end of the file.
  const last = view.byteLength - 22;
  const first = Math.max(0, last - 0xffff);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === eocdSignature) return at;
  }
  return -1;
}

function readZip64Extra(
  view: DataView,
  start: number,
  length: number,
  want: { uncompressed: boolean; compressed: boolean; offset: boolean },
): { uncompressed?: number; compressed?: number; offset?: number } {
  let at = start;
  const end = start + length;
  while (at + 4 <= end) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      const result: { uncompressed?: number; compressed?: number; offset?: number } = {};
      let field = at + 4;
      const fieldEnd = field + size;
      if (want.uncompressed && field + 8 <= fieldEnd) {
        result.uncompressed = readUint64(view, field);
        field += 8;
      }
      if (want.compressed && field + 8 <= fieldEnd) {
        result.compressed = readUint64(view, field);
        field += 8;
      }
      if (want.offset && field + 8 <= fieldEnd) result.offset = readUint64(view, field);
      return result;
    }
    at += 4 + size;
  }
  throw broken('zip64: missing extra field');
}

function readUint64(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw broken('zip64: size out of range');
  return Number(value);
}

function broken(detail: string, cause?: unknown): ExtractError {
  return new ExtractError('broken', undefined, { cause: cause ?? new Error(detail) });
}
