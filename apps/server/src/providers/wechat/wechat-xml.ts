import { WechatEventFormatError } from './wechat.types.ts';

/**
 * A small, safe reader for the plaintext XML WeChat pushes:
 * `<xml><ToUserName><![CDATA[gh_…]]></ToUserName><CreateTime>1348831860</CreateTime>…</xml>`.
 * No DTDs or entity declarations (refused outright, so no XXE or entity expansion), only the five
 * predefined entities and character references, bounded size and depth. Nested elements (e.g.
 * ScanCodeInfo of menu events) are parsed and kept as objects; the event fields we read are flat.
 */

export const MAX_WECHAT_XML_BYTES = 64 * 1024;
const MAX_DEPTH = 8;
const NAME = /[A-Za-z_][A-Za-z0-9_.-]*/y;

export type XmlValue = string | { [name: string]: XmlValue };

function fail(message: string): never {
  throw new WechatEventFormatError(`event XML: ${message}`);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) fail('bare ampersand');
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const ch = ENTITIES[ref];
    if (ch === undefined) fail(`unknown entity &${ref};`);
    return ch;
  });
}

function readName(s: string, at: number): string {
  NAME.lastIndex = at;
  const m = NAME.exec(s);
  if (!m) fail(`element name expected at ${at}`);
  return m[0];
}

/** Parses the content of element `name` starting after its start tag; returns the value and the index after its end tag. */
function parseContent(s: string, start: number, name: string, depth: number): [XmlValue, number] {
  if (depth > MAX_DEPTH) fail('nesting too deep');
  let i = start;
  let text = '';
  let sawCdata = false;
  let children: { [name: string]: XmlValue } | null = null;
  while (i < s.length) {
    if (s.startsWith('<![CDATA[', i)) {
      const end = s.indexOf(']]>', i + 9);
      if (end < 0) fail('unterminated CDATA');
      text += s.slice(i + 9, end);
      sawCdata = true;
      i = end + 3;
    } else if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      if (end < 0) fail('unterminated comment');
      i = end + 3;
    } else if (s.startsWith('</', i)) {
      const closing = readName(s, i + 2);
      if (closing !== name) fail(`</${closing}> closes <${name}>`);
      const gt = s.indexOf('>', i + 2 + closing.length);
      if (gt < 0 || s.slice(i + 2 + closing.length, gt).trim() !== '') fail('malformed end tag');
      const value: XmlValue = children ?? (sawCdata ? text : text.trim());
      return [value, gt + 1];
    } else if (s[i] === '<') {
      if (s[i + 1] === '!' || s[i + 1] === '?') fail('markup declarations are not allowed');
      const child = readName(s, i + 1);
      const gt = s.indexOf('>', i + 1 + child.length);
      if (gt < 0) fail('unterminated start tag');
      children ??= {};
      if (s[gt - 1] === '/') {
        children[child] = '';
        i = gt + 1;
      } else {
        const [value, next] = parseContent(s, gt + 1, child, depth + 1);
        children[child] = value;
        i = next;
      }
    } else {
      const lt = s.indexOf('<', i);
      if (lt < 0) fail(`<${name}> is not closed`);
      text += decodeText(s.slice(i, lt));
      i = lt;
    }
  }
  return fail(`<${name}> is not closed`);
}

/** Parses `<xml>…</xml>` into its child elements; throws WechatEventFormatError on anything else. */
export function parseWechatXml(raw: string | Buffer): { [name: string]: XmlValue } {
  const bytes = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  if (bytes === 0) fail('empty body');
  if (bytes > MAX_WECHAT_XML_BYTES) fail('body too large');
  const s = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(s)) fail('DTDs and entity declarations are not allowed');
  let i = 0;
  const skipProlog = () => {
    for (;;) {
      while (i < s.length && /\s/.test(s[i]!)) i++;
      if (s.charCodeAt(i) === 0xfeff) i++;
      else if (s.startsWith('<?xml', i)) {
        const end = s.indexOf('?>', i);
        if (end < 0) fail('unterminated XML declaration');
        i = end + 2;
      } else if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else return;
    }
  };
  skipProlog();
  if (!s.startsWith('<xml>', i)) fail('root element <xml> expected');
  const [value, end] = parseContent(s, i + 5, 'xml', 1);
  i = end;
  skipProlog();
  if (i !== s.length) fail('content after </xml>');
  return typeof value === 'string' ? {} : value;
}

/** A top-level text field, or undefined when absent or not text. */
export function xmlText(fields: { [name: string]: XmlValue }, name: string): string | undefined {
  const v = fields[name];
  return typeof v === 'string' ? v : undefined;
}

/** Builds WeChat's XML: strings in CDATA (with `]]>` split), numbers bare. */
export function buildWechatXml(fields: Record<string, string | number>): string {
  const parts = Object.entries(fields).map(([k, v]) =>
    typeof v === 'number'
      ? `<${k}>${v}</${k}>`
      : `<${k}><![CDATA[${v.replaceAll(']]>', ']]]]><![CDATA[>')}]]></${k}>`,
  );
  return `<xml>${parts.join('')}</xml>`;
}
