import { brotliDecompressSync, constants, inflateSync } from 'node:zlib';
import { ExtractError } from './errors.ts';
import { detailMessages } from './messages.ts';

/**
 * The decompression budget of a PDF, checked before pdfjs reads it (pdfjs inflates every stream it
 * meets with no limit: a 0.5 MB file whose content stream inflates to 500 MB would cost a gigabyte).
 * Every stream of the file is decoded here through its filter chain — FlateDecode and BrotliDecode
 * natively with an output cap, LZWDecode and RunLengthDecode counted without building the output,
 * ASCIIHex and ASCII85 decoded — and the decoded bytes are summed, intermediate stages included;
 * past `maxBytes` the file is refused as a decompression bomb ('too-large',
 * `文件解压后内容过大（疑似压缩炸弹）`), like a .docx past the same budget.
 *
 * Not counted: image XObjects (`/Subtype /Image`, which text extraction never decodes) unless a page
 * names them as its content, and streams this scan cannot read (an encrypted file's, a filter it
 * does not know): those stay bounded by the worker pool, its heap and the extraction timeout.
 */
export function assertPdfInflationWithin(bytes: Uint8Array, maxBytes: number): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const contentObjects = contentObjectNumbers(text);
  let remaining = maxBytes;
  const spend = (count: number) => {
    remaining -= count;
    if (remaining < 0) throw new ExtractError('too-large', detailMessages.decompressedTooLarge);
  };
  const streamKeyword = /(?:^|[\s>])stream(?:\r\n|\n|\r)/g;
  for (let match = streamKeyword.exec(text); match; match = streamKeyword.exec(text)) {
    const dataStart = match.index + match[0].length;
    const header = objectHeader(text, match.index);
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(header.dict);
    let dataEnd = length ? dataStart + Number(length[1]) : -1;
    if (
      dataEnd < dataStart ||
      dataEnd > text.length ||
      !text.startsWith('endstream', skipSpace(text, dataEnd))
    )
      dataEnd = text.indexOf('endstream', dataStart);
    if (dataEnd < 0) dataEnd = text.length;
    streamKeyword.lastIndex = dataEnd;
    const isImage = /\/Subtype\s*\/Image\b/.test(header.dict);
    if (isImage && !contentObjects.has(header.number)) continue;
    let data: Uint8Array = bytes.subarray(dataStart, dataEnd);
    // No readable /Filter (an indirect one, a dictionary padded past the window): zlib-looking data
    // is counted as Flate, to be safe.
    const filters = filtersOf(header.dict);
    for (const filter of filters.length > 0 ? filters : ['FlateDecode']) {
      const decoded = decodeStage(filter, data, remaining);
      if (decoded === null) break; // an image codec or an unknown filter: nothing more to count
      spend(decoded.count);
      if (!decoded.bytes) break;
      data = decoded.bytes;
    }
  }
}

/** Object numbers that pages name as /Contents (those are decoded whatever their dictionary says). */
function contentObjectNumbers(text: string): Set<number> {
  const numbers = new Set<number>();
  for (const match of text.matchAll(/\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/g)) {
    for (const ref of match[1]!.matchAll(/(\d+)\s+\d+\s+R/g)) numbers.add(Number(ref[1]));
  }
  return numbers;
}

/**
 * The `N G obj << … >>` before a `stream` keyword (its last 64 KB when longer). Without an `obj`
 * before it, the number is -1 and the dictionary the text before the keyword.
 */
function objectHeader(text: string, streamAt: number): { number: number; dict: string } {
  const objAt = text.lastIndexOf('obj', streamAt);
  const from = Math.max(objAt, 0, streamAt - 65_536);
  const number = objAt < 0 ? null : /(\d+)\s+\d+\s*$/.exec(text.slice(Math.max(0, objAt - 24), objAt));
  return { number: number ? Number(number[1]) : -1, dict: text.slice(from, streamAt) };
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && /[\s]/.test(text[i]!)) i++;
  return i;
}

/** The filter names of a stream dictionary, in decoding order. */
function filtersOf(dict: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!match) return [];
  return [...match[1]!.matchAll(/\/([A-Za-z0-9]+)/g)].map((name) => name[1]!);
}

type Stage = { count: number; bytes?: Uint8Array } | null;

/**
 * One filter: how many bytes it produces (and the bytes, when a later filter needs them). At most
 * `cap + 1` bytes are produced, so a stage past the budget costs no more than the budget.
 */
function decodeStage(filter: string, data: Uint8Array, cap: number): Stage {
  const limit = Math.max(1, cap + 1);
  switch (filter) {
    case 'FlateDecode':
    case 'Fl':
      // pdfjs inflates only streams with a valid zlib header; a truncated stream is read as far as it goes.
      if (data.length < 2 || (data[0]! & 0x0f) !== 8 || ((data[0]! << 8) + data[1]!) % 31 !== 0) return null;
      return capped(
        () => inflateSync(data, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH }),
        limit,
      );
    case 'BrotliDecode':
      return capped(() => brotliDecompressSync(data, { maxOutputLength: limit }), limit);
    case 'LZWDecode':
    case 'LZW':
      return { count: lzwLength(data, limit) };
    case 'RunLengthDecode':
    case 'RL':
      return { count: runLengthLength(data) };
    case 'ASCIIHexDecode':
    case 'AHx': {
      const hex = Buffer.from(data)
        .toString('latin1')
        .replace(/>.*$/s, '')
        .replace(/[^0-9A-Fa-f]/g, '');
      const bytes = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
      return { count: bytes.length, bytes };
    }
    case 'ASCII85Decode':
    case 'A85': {
      const bytes = ascii85(data);
      return { count: bytes.length, bytes };
    }
    default:
      return null;
  }
}

/** Runs a native decoder capped at `limit` bytes; past it, the count says so. A broken stream ends the chain. */
function capped(decode: () => Buffer, limit: number): Stage {
  try {
    const bytes = decode();
    return { count: bytes.length, bytes };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
      return { count: limit };
    return null;
  }
}

/** Output length of an LZW stream (PDF's variant, EarlyChange 1), without building the output. */
function lzwLength(data: Uint8Array, limit: number): number {
  const lengths = new Uint16Array(4097);
  let next = 258;
  let width = 9;
  let previous = -1;
  let total = 0;
  let bits = 0;
  let buffer = 0;
  for (let i = 0; i < data.length; i++) {
    buffer = ((buffer << 8) | data[i]!) >>> 0;
    bits += 8;
    while (bits >= width) {
      const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      if (code === 257) return total;
      let length: number;
      if (code < 256) length = 1;
      else if (code < next) length = lengths[code]!;
      else if (previous >= 0) length = (previous < 256 ? 1 : lengths[previous]!) + 1;
      else return total;
      total += length;
      if (total >= limit) return total;
      if (previous >= 0 && next < 4096) {
        lengths[next] = (previous < 256 ? 1 : lengths[previous]!) + 1;
        next++;
      }
      previous = code;
      if (next + 1 >= 1 << width && width < 12) width++;
    }
  }
  return total;
}

/** Output length of a RunLengthDecode stream. */
function runLengthLength(data: Uint8Array): number {
  let total = 0;
  let i = 0;
  while (i < data.length) {
    const n = data[i]!;
    if (n === 128) break;
    if (n < 128) {
      total += n + 1;
      i += n + 2;
    } else {
      total += 257 - n;
      i += 2;
    }
  }
  return total;
}

function ascii85(data: Uint8Array): Buffer {
  const text = Buffer.from(data).toString('latin1').replace(/~>.*$/s, '').replace(/\s/g, '');
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const digit of group) value = value * 85 + digit;
    for (let k = 0; k < count; k++) out.push((value >>> (24 - 8 * k)) & 0xff);
    group = [];
  };
  for (const char of text) {
    if (char === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = char.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) continue;
    group.push(digit);
    if (group.length === 5) flush(4);
  }
  if (group.length > 1) flush(group.length - 1);
  return Buffer.from(out);
}
