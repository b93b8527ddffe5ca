/** UTF-16 offset -> Unicode code point offset, for texts with characters outside the BMP. */
export type CodePointMapper = (utf16Offset: number) => number;

export function createCodePointMapper(text: string): CodePointMapper {
  let hasPairs = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
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
    const isLowSurrogateOfPair =
      c >= 0xdc00 &&
      c <= 0xdfff &&
      i > 0 &&
      text.charCodeAt(i - 1) >= 0xd800 &&
      text.charCodeAt(i - 1) <= 0xdbff;
    if (!isLowSurrogateOfPair) cp++;
    else prefix[i] = cp - 1;
  }
  prefix[text.length] = cp;
  return (o) => prefix[o]!;
}

/** Number of code points in text. */
export function countCodePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0) n++;
    else {
      const p = text.charCodeAt(i - 1);
      if (p < 0xd800 || p > 0xdbff) n++;
    }
  }
  return n;
}
