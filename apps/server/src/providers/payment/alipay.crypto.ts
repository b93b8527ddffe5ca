/**
 * Alipay open-platform RSA2 (SHA256withRSA) signing, as pure functions shared by the adapter and
 * the sandbox. https://opendocs.alipay.com/common/02kf5q (sign), 02mse7 (verify).
 */

/**
 * The string Alipay signs: every parameter except the excluded ones and the empty ones, sorted
 * by name (ASCII), as `name=value` joined by `&`, values raw (not URL-encoded).
 * Requests exclude `sign`; asynchronous notifications exclude `sign` and `sign_type`.
 */
export function buildSignContent(
  params: Record<string, string | undefined>,
  exclude: readonly string[],
): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** Parameters excluded from the request sign string. */
export const REQUEST_SIGN_EXCLUDE = ['sign'] as const;
/** Parameters excluded from the notification sign string. */
export const NOTIFY_SIGN_EXCLUDE = ['sign', 'sign_type'] as const;

/** `alipay.trade.precreate` -> `alipay_trade_precreate_response`. */
export function responseNodeName(method: string): string {
  return `${method.replaceAll('.', '_')}_response`;
}

export interface ResponseNode {
  /** Which node held the answer: the method's, or Alipay's generic `error_response`. */
  nodeName: string;
  /** The node's JSON text exactly as received: the signed bytes. */
  nodeText: string;
  /** The top-level `sign`, if any. */
  sign: string | undefined;
}

/**
 * Finds the `<method>_response` (or `error_response`) node in an Alipay answer and returns its
 * exact text, because the signature covers those bytes, not a re-serialisation of them.
 * @returns null when the text is not an Alipay answer.
 */
export function extractResponseNode(text: string, method: string): ResponseNode | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const top = parsed as Record<string, unknown>;
  const sign = typeof top.sign === 'string' ? top.sign : undefined;
  for (const nodeName of [responseNodeName(method), 'error_response']) {
    if (!(nodeName in top)) continue;
    const nodeText = findTopLevelValueText(text, nodeName);
    if (nodeText === null) return null;
    return { nodeName, nodeText, sign };
  }
  return null;
}

/**
 * The exact source text of the value of top-level key `key` in a JSON object text. Walks the text
 * token by token (strings with escapes, nesting) so braces inside strings cannot fool it.
 */
export function findTopLevelValueText(text: string, key: string): string | null {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return null;
  i++;
  for (;;) {
    i = skipWs(text, i);
    if (text[i] === '}') return null;
    const keyEnd = endOfString(text, i);
    if (keyEnd < 0) return null;
    let name: string;
    try {
      name = JSON.parse(text.slice(i, keyEnd)) as string;
    } catch {
      return null;
    }
    i = skipWs(text, keyEnd);
    if (text[i] !== ':') return null;
    const valueStart = skipWs(text, i + 1);
    const valueEnd = endOfValue(text, valueStart);
    if (valueEnd < 0) return null;
    if (name === key) return text.slice(valueStart, valueEnd);
    i = skipWs(text, valueEnd);
    if (text[i] === ',') {
      i++;
      continue;
    }
    return null;
  }
}

function skipWs(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  return i;
}

/** Index just past the string starting at `i` (which must be a quote), or -1. */
function endOfString(text: string, i: number): number {
  if (text[i] !== '"') return -1;
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `i`, or -1. */
function endOfValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return endOfString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') {
        j = endOfString(text, j) - 1;
        if (j < 0) return -1;
      } else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !',}] \t\n\r'.includes(text[j]!)) j++;
  return j > i ? j : -1;
}
