import { ExtractError } from './errors.ts';
import { detailMessages } from './messages.ts';
import { normaliseNewlines } from './text-builder.ts';
import type { ExtractedDocument } from './types.ts';

export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';
  /** True when some bytes could not be decoded and became U+FFFD. */
  hasReplacements: boolean;
}

/**
 * Decodes a plain-text upload: a BOM decides (UTF-8, UTF-16 LE/BE, GB18030); without one, bytes
 * that are valid UTF-8 are UTF-8, and anything else is GB18030 (a superset of GBK/GB2312, which
 * Chinese Windows Notepad saved for years) — unless it is UTF-8 spoilt by a few stray bytes
 * (fewer than 1 in 200 characters undecodable), which stays UTF-8 with the bad bytes replaced.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return decodeWith('utf-8', bytes.subarray(3));
  if (startsWith(bytes, [0xff, 0xfe])) return decodeWith('utf-16le', bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return decodeWith('utf-16be', bytes.subarray(2));
  if (startsWith(bytes, [0x84, 0x31, 0x95, 0x33])) return decodeWith('gb18030', bytes.subarray(4));
  const utf8 = decodeWith('utf-8', bytes);
  if (!utf8.hasReplacements) return utf8;
  let replacements = 0;
  for (const char of utf8.text) if (char === '\uFFFD') replacements++;
  return replacements * 200 < utf8.text.length ? utf8 : decodeWith('gb18030', bytes);
}

/**
 * True when the bytes look like text rather than binary: no NUL and almost no other control
 * characters in the first 64 KiB (or a UTF-16 byte-order mark).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  if (startsWith(sample, [0xff, 0xfe]) || startsWith(sample, [0xfe, 0xff])) return sample.length % 2 === 0;
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) || byte === 0x7f) {
      controls++;
    }
  }
  return controls <= sample.length / 100;
}

export function extractTxt(bytes: Uint8Array, maxChars: number): ExtractedDocument {
  const decoded = decodeText(bytes);
  const text = normaliseNewlines(decoded.text.replace(/^\uFEFF/, ''));
  if (text.length > maxChars) throw new ExtractError('too-large', detailMessages.tooManyChars(maxChars));
  const warnings: string[] = [];
  if (decoded.encoding === 'gb18030') warnings.push(detailMessages.gb18030);
  if (decoded.encoding.startsWith('utf-16')) warnings.push(detailMessages.utf16);
  if (decoded.hasReplacements) warnings.push(detailMessages.undecodable);
  return { text, format: 'txt', headings: [], warnings };
}

function decodeWith(encoding: DecodedText['encoding'], bytes: Uint8Array): DecodedText {
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
  return { text, encoding, hasReplacements: text.includes('\uFFFD') };
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}
