// The pure part of `npm run api:record` (scripts/api-record.ts): what a recorded answer looks like,
// how its volatile values (ids, times, tokens, numbers drawn at random) are replaced by stable
// labels, and how two records are compared. Tested in api-record.test.ts.

/** One request of the script and what the server answered. */
export interface RecordedExchange {
  /** The step's name, unique in a record: the key two records are compared by. */
  name: string;
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  /** The JSON answer after normalisation; for a file, a summary of it. */
  body: unknown;
}

export interface ApiRecord {
  /** What was recorded: the commit and when (not compared). */
  meta: { commit: string; recordedAt: string };
  exchanges: RecordedExchange[];
}

/**
 * Volatile values in strings, replaced in this order. A value seen again gets the same label (its
 * number is the order of first appearance in the record), so an id returned by one call and sent to
 * the next still reads as the same id in both records.
 */
const LABELLED: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'id', pattern: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi },
  // Order numbers (KY + 20 digits), check numbers (JC + 20), report numbers (BG + day + 8).
  { kind: 'orderNo', pattern: /\bKY\d{20}\b/g },
  { kind: 'checkNo', pattern: /\bJC\d{20}\b/g },
  { kind: 'reportNo', pattern: /\bBG\d{8}[2-9A-HJKMNP-Z]{8}\b/g },
];

/** Values replaced by a fixed placeholder (their identity does not matter). */
const FIXED: readonly { placeholder: string; pattern: RegExp }[] = [
  { placeholder: '<data-url>', pattern: /^data:[^,]{1,100},.*$/s },
  {
    placeholder: '<time>',
    pattern: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:?\d{2})\b/g,
  },
  { placeholder: '<time>', pattern: /\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?\b/g },
  { placeholder: '<day>', pattern: /\b20\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{0,6}\b/g },
  { placeholder: '<hex>', pattern: /\b[0-9a-f]{32,}\b/g },
  // Secrets in a URL's query (a report's verification link, a QR ticket).
  { placeholder: '$1<secret>', pattern: /([?&](?:code|token|ticket|sign|nonce)=)[^&"\s]+/g },
];

/** Keys whose values are secrets or random whatever their form. */
const SECRET_KEYS = /^(token|ticket|codeUrl|code_url|qrCode|qrUrl|nonce|signature|verificationCode|sign)$/i;
/** Keys holding a time as epoch milliseconds or seconds. */
const TIME_KEYS = /(At|Time|Timestamp|Expire|Expires)$/;
/** Timings measured while answering (engine stage times). */
const DURATION_KEYS = /(Ms|Millis|Seconds|elapsed|duration)$/i;

export interface Normaliser {
  normalise(value: unknown, key?: string): unknown;
}

/** A normaliser for one record: labels are numbered in the order values first appear in it. */
export function createNormaliser(): Normaliser {
  const labels = new Map<string, string>();
  const counts = new Map<string, number>();
  const labelOf = (kind: string, raw: string): string => {
    const key = `${kind}:${raw.toLowerCase()}`;
    let label = labels.get(key);
    if (!label) {
      const n = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, n);
      label = `<${kind}:${n}>`;
      labels.set(key, label);
    }
    return label;
  };
  const normaliseString = (text: string): string => {
    let out = text;
    for (const { kind, pattern } of LABELLED) out = out.replace(pattern, (raw) => labelOf(kind, raw));
    for (const { placeholder, pattern } of FIXED) out = out.replace(pattern, placeholder);
    return out;
  };
  const normalise = (value: unknown, key?: string): unknown => {
    if (value === null || value === undefined) return value ?? null;
    if (key !== undefined && SECRET_KEYS.test(key) && typeof value === 'string' && value !== '')
      return typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value)
        ? normaliseString(value)
        : '<secret>';
    if (typeof value === 'number') {
      if (key !== undefined && TIME_KEYS.test(key) && value > 1_000_000_000) return '<time>';
      if (key !== undefined && DURATION_KEYS.test(key)) return '<duration>';
      return value;
    }
    if (typeof value === 'string') return normaliseString(value);
    if (Array.isArray(value)) return value.map((item) => normalise(item));
    if (typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = normalise(v, k);
      return out;
    }
    return value;
  };
  return { normalise };
}

/** One difference between two records: where, and the two values (undefined: absent). */
export interface Difference {
  step: string;
  /** A JSON-path-like location inside the exchange: `status`, `body.data.list[0].title`. */
  at: string;
  before: unknown;
  after: unknown;
}

/** Every difference between two records' exchanges, step by step (steps only in one record too). */
export function compareRecords(before: ApiRecord, after: ApiRecord): Difference[] {
  const differences: Difference[] = [];
  const afterByName = new Map(after.exchanges.map((e) => [e.name, e]));
  const beforeNames = new Set(before.exchanges.map((e) => e.name));
  for (const a of before.exchanges) {
    const b = afterByName.get(a.name);
    if (!b) {
      differences.push({ step: a.name, at: '', before: 'recorded', after: undefined });
      continue;
    }
    for (const field of ['method', 'path', 'status', 'contentType', 'body'] as const)
      diffValues(a.name, field, a[field], b[field], differences);
  }
  for (const b of after.exchanges)
    if (!beforeNames.has(b.name))
      differences.push({ step: b.name, at: '', before: undefined, after: 'recorded' });
  return differences;
}

function diffValues(step: string, at: string, a: unknown, b: unknown, out: Difference[]): void {
  if (Object.is(a, b)) return;
  const bothObjects =
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    out.push({ step, at, before: a, after: b });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push({ step, at: `${at}.length`, before: a.length, after: b.length });
    for (let i = 0; i < Math.min(a.length, b.length); i++) diffValues(step, `${at}[${i}]`, a[i], b[i], out);
    return;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(key in bo)) out.push({ step, at: `${at}.${key}`, before: ao[key], after: undefined });
    else if (!(key in ao)) out.push({ step, at: `${at}.${key}`, before: undefined, after: bo[key] });
    else diffValues(step, `${at}.${key}`, ao[key], bo[key], out);
  }
}

/** The differences as lines a person reads (values cut to `width` characters). */
export function formatDifferences(differences: readonly Difference[], width = 160): string {
  const show = (v: unknown) => {
    if (v === undefined) return '(absent)';
    const text = JSON.stringify(v);
    return text.length > width ? `${text.slice(0, width)}…` : text;
  };
  return differences
    .map((d) => `${d.step} ${d.at || '(step)'}\n  before: ${show(d.before)}\n  after:  ${show(d.after)}`)
    .join('\n');
}
