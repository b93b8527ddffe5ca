import { createHash } from 'node:crypto';
import { zlibSync } from 'fflate';

/**
 * A minimal PDF writer for test fixtures, written here so that the project makes its own PDFs.
 * It covers what extraction has to cope with in real theses:
 * - 'cid': a Type0 font with Identity-H encoding and a ToUnicode CMap, as Word and LaTeX write
 *   subset CJK fonts (the glyphs themselves are not embedded: text extraction does not need them);
 * - 'song': the non-embedded STSong-Light with the predefined CMap UniGB-UCS2-H, as older Chinese
 *   PDF producers write it (it exercises the CMap files that pdfjs ships);
 * - 'latin': Helvetica with WinAnsi encoding;
 * - an image-only page (a "scanned" PDF), Flate-compressed streams, and the standard security
 *   handler (RC4, 128-bit, revision 3) for encrypted fixtures.
 */

export interface PdfTextRun {
  x: number;
  y: number;
  size: number;
  text: string;
  font: 'cid' | 'song' | 'latin';
}

export interface PdfPageSpec {
  runs?: PdfTextRun[];
  /** Paint a grey image over the page, as a scanner would. */
  image?: boolean;
  /** Raw content-stream operators appended after the runs (for stress fixtures). */
  extraContent?: string;
  /** An already encoded content stream and its /Filter (for decompression bombs); replaces the rest. */
  encodedContent?: { bytes: Uint8Array; filter: string };
}

export interface PdfSpec {
  pages: PdfPageSpec[];
  encrypt?: { userPassword: string; ownerPassword: string };
}

const padding = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e,
  0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

type PdfObject = { dict: string; stream?: Uint8Array } | { raw: string };

export function buildPdf(spec: PdfSpec): Uint8Array {
  const objects: PdfObject[] = [];
  const add = (object: PdfObject): number => {
    objects.push(object);
    return objects.length;
  };
  const reserve = (): number => add({ raw: 'null' });

  // Fonts: assign CIDs in order of first use, as a subsetting producer would.
  const cids = new Map<string, number>();
  for (const page of spec.pages) {
    for (const run of page.runs ?? []) {
      if (run.font !== 'cid') continue;
      for (const char of run.text) if (!cids.has(char)) cids.set(char, cids.size + 1);
    }
  }
  const catalog = reserve();
  const pagesRoot = reserve();
  const toUnicode = add({ dict: '<< >>', stream: latin1(buildToUnicodeCMap(cids)) });
  const cidDescriptor = add({
    raw: '<< /Type /FontDescriptor /FontName /KYFWSong /Flags 4 /FontBBox [0 -140 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
  });
  const cidDescendant = add({
    raw: `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /KYFWSong /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${cidDescriptor} 0 R /DW 1000 /CIDToGIDMap /Identity >>`,
  });
  const cidFont = add({
    raw: `<< /Type /Font /Subtype /Type0 /BaseFont /KYFWSong /Encoding /Identity-H /DescendantFonts [${cidDescendant} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
  });
  const songDescriptor = add({
    raw: '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  });
  const songDescendant = add({
    raw: `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor ${songDescriptor} 0 R /DW 1000 >>`,
  });
  const songFont = add({
    raw: `<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [${songDescendant} 0 R] >>`,
  });
  const latinFont = add({
    raw: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  });
  const imageData = new Uint8Array(64 * 64).map((_, i) => 128 + ((i * 7) % 64));
  const image = add({
    dict: '<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>',
    stream: zlibSync(imageData),
  });

  const pageRefs: number[] = [];
  for (const page of spec.pages) {
    const content: string[] = [];
    if (page.image) content.push('q 595 0 0 842 0 0 cm /Im1 Do Q');
    for (const run of page.runs ?? []) {
      const name = run.font === 'cid' ? 'F1' : run.font === 'song' ? 'F2' : 'F3';
      content.push(`BT /${name} ${run.size} Tf 1 0 0 1 ${run.x} ${run.y} Tm ${encodeRun(run, cids)} Tj ET`);
    }
    if (page.extraContent) content.push(page.extraContent);
    const contents = page.encodedContent
      ? add({ dict: `<< /Filter ${page.encodedContent.filter} >>`, stream: page.encodedContent.bytes })
      : add({ dict: '<< /Filter /FlateDecode >>', stream: zlibSync(utf8(content.join('\n'))) });
    pageRefs.push(
      add({
        raw: `<< /Type /Page /Parent ${pagesRoot} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${cidFont} 0 R /F2 ${songFont} 0 R /F3 ${latinFont} 0 R >> /XObject << /Im1 ${image} 0 R >> >> /Contents ${contents} 0 R >>`,
      }),
    );
  }
  objects[catalog - 1] = { raw: `<< /Type /Catalog /Pages ${pagesRoot} 0 R >>` };
  objects[pagesRoot - 1] = {
    raw: `<< /Type /Pages /Kids [${pageRefs.map((ref) => `${ref} 0 R`).join(' ')}] /Count ${pageRefs.length} >>`,
  };

  const fileId = createHash('md5').update(JSON.stringify(spec)).digest();
  let encryption: { key: Uint8Array; ref: number } | undefined;
  if (spec.encrypt) {
    const { o, u, key, permissions } = standardSecurity(
      spec.encrypt.userPassword,
      spec.encrypt.ownerPassword,
      fileId,
    );
    const ref = add({
      raw: `<< /Filter /Standard /V 2 /R 3 /Length 128 /P ${permissions} /O <${hex(o)}> /U <${hex(u)}> >>`,
    });
    encryption = { key, ref };
  }

  const chunks: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = chunks[0]!.length;
  const push = (chunk: Uint8Array) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    const number = index + 1;
    offsets.push(length);
    if ('raw' in object) {
      // Literal strings in dictionaries are encrypted too (7.6.2); write them as hex.
      const raw = encryption
        ? object.raw.replace(
            /\(([^()\\]*)\)/g,
            (_m, text: string) => `<${hex(rc4(objectKey(encryption!.key, number), latin1(text)))}>`,
          )
        : object.raw;
      push(latin1(`${number} 0 obj\n${raw}\nendobj\n`));
      return;
    }
    let stream = object.stream!;
    if (encryption && number !== encryption.ref) stream = rc4(objectKey(encryption.key, number), stream);
    const dict = object.dict.replace(/>>\s*$/, ` /Length ${stream.length} >>`);
    push(latin1(`${number} 0 obj\n${dict}\nstream\n`));
    push(stream);
    push(latin1('\nendstream\nendobj\n'));
  });
  const xrefAt = length;
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`];
  for (const offset of offsets) xref.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  const encryptEntry = encryption ? ` /Encrypt ${encryption.ref} 0 R` : '';
  xref.push(
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encryptEntry} /ID [<${hex(fileId)}> <${hex(fileId)}>] >>\nstartxref\n${xrefAt}\n%%EOF\n`,
  );
  push(latin1(xref.join('')));
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function encodeRun(run: PdfTextRun, cids: Map<string, number>): string {
  if (run.font === 'cid') {
    return `<${[...run.text].map((char) => cids.get(char)!.toString(16).padStart(4, '0')).join('')}>`;
  }
  if (run.font === 'song') {
    // UniGB-UCS2-H: two-byte UCS-2 codes (BMP only).
    return `<${[...run.text].map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('')}>`;
  }
  return `(${run.text.replace(/[\\()]/g, (char) => `\\${char}`)})`;
}

function buildToUnicodeCMap(cids: Map<string, number>): string {
  const entries = [...cids].map(
    ([char, cid]) => `<${cid.toString(16).padStart(4, '0')}> <${utf16beHex(char)}>`,
  );
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

// Standard security handler, revision 3 (PDF 1.7, 7.6.3): algorithms 2, 3 and 5.
function standardSecurity(userPassword: string, ownerPassword: string, fileId: Uint8Array) {
  const permissions = -3904; // bits 3–6 clear: no printing, copying or editing (a "copy-protected" thesis)
  const ownerKey = md5Rounds(md5(padPassword(ownerPassword)), 50);
  let o = rc4(ownerKey, padPassword(userPassword));
  for (let i = 1; i <= 19; i++)
    o = rc4(
      ownerKey.map((byte) => byte ^ i),
      o,
    );
  const p = new Uint8Array(4);
  new DataView(p.buffer).setInt32(0, permissions, true);
  const key = md5Rounds(md5(concat(padPassword(userPassword), o, p, fileId)), 50);
  let u = rc4(key, md5(concat(padding, fileId)));
  for (let i = 1; i <= 19; i++)
    u = rc4(
      key.map((byte) => byte ^ i),
      u,
    );
  return { o, u: concat(u, new Uint8Array(16)), key, permissions };
}

function objectKey(key: Uint8Array, number: number): Uint8Array {
  const salt = Uint8Array.from([number & 0xff, (number >> 8) & 0xff, (number >> 16) & 0xff, 0, 0]);
  return md5(concat(key, salt)).subarray(0, Math.min(key.length + 5, 16));
}

function padPassword(password: string): Uint8Array {
  return concat(latin1(password).subarray(0, 32), padding).subarray(0, 32);
}

function md5(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('md5').update(data).digest());
}

function md5Rounds(start: Uint8Array, rounds: number): Uint8Array {
  let hash = start;
  for (let i = 0; i < rounds; i++) hash = md5(hash.subarray(0, 16));
  return hash.subarray(0, 16);
}

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256).map((_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  let i = 0;
  j = 0;
  for (let k = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function utf16beHex(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += char.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function latin1(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
