import { unzipSync, zipSync } from 'fflate';

/**
 * Edits an uploaded .docx in place (降重 downloads, the report editor's revised paper): in
 * word/document.xml each paragraph (<w:p>) whose text is one of the rewritten paragraphs gets the rewrite in its first text element (<w:t>) and its other text
 * elements emptied — paragraph properties (style, numbering), run properties of the first run,
 * tables, images, headers and every other part stay as they were. Returns undefined when a
 * rewritten paragraph cannot be found in the document (the caller then renders a new .docx).
 */

const squeeze = (s: string) => s.replace(/\s+/g, '');
const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, '&');
const encode = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const PARAGRAPH = /<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g;
const TEXT = /<w:t\b[^>]*?(?:\/>|>([^<]*)<\/w:t>)/g;

export function editDocxInPlace(
  original: Uint8Array,
  rewrites: readonly { before: string; after: string }[],
): Uint8Array | undefined {
  const files = unzipSync(original);
  const xmlBytes = files['word/document.xml'];
  if (!xmlBytes) return undefined;
  const xml = new TextDecoder().decode(xmlBytes);
  const pending = new Map<string, string[]>();
  for (const r of rewrites) {
    const key = squeeze(r.before);
    if (!key) continue;
    pending.set(key, [...(pending.get(key) ?? []), r.after]);
  }
  const edited = xml.replace(PARAGRAPH, (p) => {
    const text = Array.from(p.matchAll(TEXT), (m) => decode(m[1] ?? '')).join('');
    const queue = pending.get(squeeze(text));
    if (!queue || queue.length === 0) return p;
    const after = queue.shift()!;
    let first = true;
    return p.replace(TEXT, () => {
      if (!first) return '<w:t/>';
      first = false;
      return `<w:t xml:space="preserve">${encode(after)}</w:t>`;
    });
  });
  for (const queue of pending.values()) if (queue.length > 0) return undefined;
  files['word/document.xml'] = new TextEncoder().encode(edited);
  return zipSync(files);
}
