/**
 * Zip bombs without the cost of compressing hundreds of megabytes: the Deflate stream is written
 * by hand with fixed Huffman codes, one literal space and then back-references of length 258 at
 * distance 1 (13 bits per 258 bytes, about 160:1). Writing a 300 MiB bomb takes milliseconds.
 */

const encoder = new TextEncoder();

class BitWriter {
  private readonly bytes: Uint8Array;
  private bytePos = 0;
  private bitPos = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Writes `count` bits of `value`, least significant first (Deflate's bit order). */
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      if ((value >> i) & 1) this.bytes[this.bytePos]! |= 1 << this.bitPos;
      if (++this.bitPos === 8) {
        this.bitPos = 0;
        this.bytePos++;
      }
    }
  }

  /** Writes a Huffman code, most significant bit first. */
  code(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.bits((value >> i) & 1, 1);
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.bytePos + (this.bitPos > 0 ? 1 : 0));
  }
}

/** Raw Deflate of `prefix` followed by spaces up to `totalBytes`. */
export function deflateSpaces(prefix: Uint8Array, totalBytes: number): Uint8Array {
  const spaces = totalBytes - prefix.length;
  const matches = Math.floor((spaces - 1) / 258);
  const tail = spaces - 1 - matches * 258;
  const writer = new BitWriter(Math.ceil(((prefix.length + 1 + tail) * 8 + matches * 13 + 20) / 8) + 8);
  writer.bits(1, 1); // BFINAL
  writer.bits(1, 2); // BTYPE 01: fixed Huffman codes
  const literal = (byte: number) => {
    if (byte < 144) writer.code(0x30 + byte, 8);
    else writer.code(0x190 + byte - 144, 9);
  };
  for (const byte of prefix) literal(byte);
  literal(0x20);
  for (let i = 0; i < matches; i++) {
    writer.code(0xc5, 8); // length code 285 = 258 bytes
    writer.code(0, 5); // distance code 0 = 1 byte back
  }
  for (let i = 0; i < tail; i++) literal(0x20);
  writer.code(0, 7); // end of block (256)
  return writer.finish();
}

/**
 * A zip with the given stored parts plus one Deflate part; `declaredSize` is what the headers
 * claim for it (the truth unless a test wants them to lie). CRCs are left 0: extraction does not
 * check them, and computing one over hundreds of megabytes would defeat the purpose.
 */
export function zipWithDeflatedPart(
  storedParts: Record<string, string>,
  name: string,
  deflated: Uint8Array,
  declaredSize: number,
): Uint8Array {
  const entries: { name: Uint8Array; data: Uint8Array; method: number; size: number; offset: number }[] = [];
  for (const [partName, content] of Object.entries(storedParts)) {
    const data = encoder.encode(content);
    entries.push({ name: encoder.encode(partName), data, method: 0, size: data.length, offset: 0 });
  }
  entries.push({ name: encoder.encode(name), data: deflated, method: 8, size: declaredSize, offset: 0 });

  const chunks: Uint8Array[] = [];
  let length = 0;
  const push = (chunk: Uint8Array) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  for (const entry of entries) {
    entry.offset = length;
    const header = new DataView(new ArrayBuffer(30));
    header.setUint32(0, 0x04034b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(8, entry.method, true);
    header.setUint32(18, entry.data.length, true);
    header.setUint32(22, entry.size, true);
    header.setUint16(26, entry.name.length, true);
    push(new Uint8Array(header.buffer));
    push(entry.name);
    push(entry.data);
  }
  const directoryStart = length;
  for (const entry of entries) {
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(6, 20, true);
    header.setUint16(10, entry.method, true);
    header.setUint32(20, entry.data.length, true);
    header.setUint32(24, entry.size, true);
    header.setUint16(28, entry.name.length, true);
    header.setUint32(42, entry.offset, true);
    push(new Uint8Array(header.buffer));
    push(entry.name);
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, length - directoryStart, true);
  end.setUint32(16, directoryStart, true);
  push(new Uint8Array(end.buffer));

  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
