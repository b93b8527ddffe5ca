/**
 * The units a report counts and locates in (`Options.units`):
 *
 * - `'codepoints'` (the default, the CLI contract): every Unicode code point counts, offsets are
 *   code point offsets.
 * - `'product'`, what the paper-check service shows a student: 字数 are code points other than
 *   whitespace (spaces, tabs, line breaks, full-width spaces do not count, as Chinese checkers count
 *   them), offsets are UTF-16 code unit offsets (a browser slices the text with them directly).
 */
export type ReportUnits = 'codepoints' | 'product';

/** UTF-16 offset -> reported offset, for one text. */
export type OffsetMapper = (utf16Offset: number) => number;

/**
 * The code units JavaScript's `\s` matches (all in the BMP): what `'product'` units leave out.
 * Kept as a table so that counting a thesis does not run a regular expression per character.
 */
const WHITESPACE = new Uint8Array(0x10000);
for (const c of [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
])
  WHITESPACE[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) WHITESPACE[c] = 1;

function isLead(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * For each UTF-16 index of `text`: 1 when a counted character starts there, else 0 (the second
 * half of a surrogate pair, and whitespace in `'product'` units).
 */
export function countedUnits(text: string, units: ReportUnits): Uint8Array {
  const n = text.length;
  const counted = new Uint8Array(n);
  const product = units === 'product';
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const trail = c >= 0xdc00 && c <= 0xdfff && i > 0 && isLead(text.charCodeAt(i - 1));
    counted[i] = trail || (product && WHITESPACE[c] === 1) ? 0 : 1;
  }
  return counted;
}

/** Characters of `text` in the given units (字数 in `'product'` units). */
export function countChars(text: string, units: ReportUnits = 'product'): number {
  const counted = countedUnits(text, units);
  let n = 0;
  for (let i = 0; i < counted.length; i++) n += counted[i]!;
  return n;
}

/** UTF-16 offsets of `text` -> offsets in the given units (identity for `'product'`). */
export function createOffsetMapper(text: string, units: ReportUnits): OffsetMapper {
  return units === 'product' ? (o) => o : createCodePointMapper(text);
}

/** UTF-16 offset -> Unicode code point offset, for texts with characters outside the BMP. */
function createCodePointMapper(text: string): OffsetMapper {
  let hasPairs = false;
  for (let i = 0; i < text.length; i++) {
    if (isLead(text.charCodeAt(i))) {
      hasPairs = true;
      break;
    }
  }
  if (!hasPairs) return (o) => o;
  const prefix = new Int32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    prefix[i] = cp;
    const c = text.charCodeAt(i);
    const isLowSurrogateOfPair = c >= 0xdc00 && c <= 0xdfff && i > 0 && isLead(text.charCodeAt(i - 1));
    if (!isLowSurrogateOfPair) cp++;
    else prefix[i] = cp - 1;
  }
  prefix[text.length] = cp;
  return (o) => prefix[o]!;
}
