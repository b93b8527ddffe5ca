import { ExtractError } from './errors.ts';

/**
 * A small, non-validating XML tokenizer for Office parts. It never expands entities other than the
 * five predefined ones and numeric references, and skips DOCTYPE entirely, so entity-expansion
 * attacks ("billion laughs") do nothing. Malformed markup throws ExtractError('broken').
 */
export interface XmlHandler {
  /** A self-closing element (`<a/>`) gets open(…, true) and no close. */
  open(name: string, attributes: Readonly<Record<string, string>>, selfClosing: boolean): void;
  close(name: string): void;
  text(text: string): void;
}

export function parseXml(xml: string, handler: XmlHandler): void {
  const length = xml.length;
  // Open elements, to catch truncated or mismatched markup (a cut-off part must not pass as empty).
  const open: string[] = [];
  const checked: XmlHandler = {
    open(name, attributes, selfClosing) {
      if (!selfClosing) open.push(name);
      handler.open(name, attributes, selfClosing);
    },
    close(name) {
      const expected = open.pop();
      if (expected !== name) throw malformed(`</${name}> closes <${expected ?? ''}>`);
      handler.close(name);
    },
    text(text) {
      handler.text(text);
    },
  };
  let at = 0;
  while (at < length) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) {
      emitText(checked, xml.slice(at));
      break;
    }
    if (lt > at) emitText(checked, xml.slice(at, lt));
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x3f /* ? */) {
      at = skipPast(xml, '?>', lt);
    } else if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) at = skipPast(xml, '-->', lt);
      else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) throw malformed('unterminated CDATA');
        checked.text(xml.slice(lt + 9, end));
        at = end + 3;
      } else at = skipDoctype(xml, lt);
    } else if (next === 0x2f /* / */) {
      const gt = xml.indexOf('>', lt);
      if (gt < 0) throw malformed('unterminated end tag');
      checked.close(xml.slice(lt + 2, gt).trim());
      at = gt + 1;
    } else {
      at = readStartTag(xml, lt, checked);
    }
  }
  if (open.length > 0) throw malformed(`unclosed <${open[open.length - 1]}>`);
}

function readStartTag(xml: string, lt: number, handler: XmlHandler): number {
  let at = lt + 1;
  const nameStart = at;
  while (at < xml.length && !isSpace(xml.charCodeAt(at)) && xml[at] !== '>' && xml[at] !== '/') at++;
  const name = xml.slice(nameStart, at);
  if (name === '') throw malformed('empty tag name');
  const attributes: Record<string, string> = {};
  for (;;) {
    while (at < xml.length && isSpace(xml.charCodeAt(at))) at++;
    if (at >= xml.length) throw malformed('unterminated start tag');
    const char = xml[at];
    if (char === '>') {
      handler.open(name, attributes, false);
      return at + 1;
    }
    if (char === '/') {
      if (xml[at + 1] !== '>') throw malformed('stray / in tag');
      handler.open(name, attributes, true);
      return at + 2;
    }
    const eq = xml.indexOf('=', at);
    if (eq < 0) throw malformed('attribute without value');
    const attrName = xml.slice(at, eq).trim();
    if (attrName === '' || /[<>\s]/.test(attrName)) throw malformed('bad attribute name');
    let quoteAt = eq + 1;
    while (quoteAt < xml.length && isSpace(xml.charCodeAt(quoteAt))) quoteAt++;
    const quote = xml[quoteAt];
    if (quote !== '"' && quote !== "'") throw malformed('unquoted attribute');
    const end = xml.indexOf(quote, quoteAt + 1);
    if (end < 0) throw malformed('unterminated attribute');
    attributes[attrName] = decodeEntities(xml.slice(quoteAt + 1, end));
    at = end + 1;
  }
}

function skipPast(xml: string, terminator: string, from: number): number {
  const end = xml.indexOf(terminator, from);
  if (end < 0) throw malformed(`missing ${terminator}`);
  return end + terminator.length;
}

function skipDoctype(xml: string, from: number): number {
  // <!DOCTYPE x [ <!ENTITY …> ]>: skip to the '>' that closes it, past any internal subset.
  let depth = 0;
  for (let at = from + 2; at < xml.length; at++) {
    const char = xml[at];
    if (char === '[') depth++;
    else if (char === ']') depth--;
    else if (char === '>' && depth <= 0) return at + 1;
  }
  throw malformed('unterminated declaration');
}

function emitText(handler: XmlHandler, raw: string): void {
  handler.text(raw.includes('&') ? decodeEntities(raw) : raw);
}

const namedEntities: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? Number.parseInt(body.slice(2), 16)
          : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\uFFFD';
    }
    return namedEntities[body] ?? whole;
  });
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function malformed(detail: string): ExtractError {
  return new ExtractError('broken', undefined, { cause: new Error(`xml: ${detail}`) });
}

/** Decodes an XML part's bytes: UTF-8 unless a UTF-16 byte-order mark says otherwise. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
