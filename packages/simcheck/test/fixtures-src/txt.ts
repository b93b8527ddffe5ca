/**
 * Plain-text fixtures in the encodings Chinese students' files come in. Node's TextEncoder writes
 * UTF-8 only, so GB18030 bytes come from inverting Node's own GB18030 decoder over the two-byte
 * range (which holds every character of these fixtures).
 */

export const sampleTxtText =
  '第一章 绪论\r\n论文查重是学位授予前的必要环节。\r\n“引文”应当注明出处[1]。\n参考文献\n[1] 张三. 文本复制检测研究[J]. 2020.';

let gbTable: Map<string, Uint8Array> | undefined;

export function encodeGb18030(text: string): Uint8Array {
  gbTable ??= buildGbTable();
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) {
      out.push(code);
      continue;
    }
    const bytes = gbTable.get(char);
    if (!bytes) throw new Error(`encodeGb18030: ${char} is outside the two-byte range`);
    out.push(...bytes);
  }
  return Uint8Array.from(out);
}

function buildGbTable(): Map<string, Uint8Array> {
  const decoder = new TextDecoder('gb18030', { fatal: true });
  const table = new Map<string, Uint8Array>();
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const bytes = Uint8Array.from([lead, trail]);
      try {
        const char = decoder.decode(bytes);
        if (!table.has(char)) table.set(char, bytes);
      } catch {}
    }
  }
  return table;
}

export function buildUtf8Txt(text = sampleTxtText): Uint8Array {
  return new TextEncoder().encode(text);
}

export function buildUtf8BomTxt(text = sampleTxtText): Uint8Array {
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}

export function buildUtf16Txt(text = sampleTxtText, endian: 'le' | 'be' = 'le'): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, endian === 'le');
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), endian === 'le');
  return out;
}

export function buildGb18030Txt(text = sampleTxtText): Uint8Array {
  return encodeGb18030(text);
}
