/**
 * References: GB/T 7714-2015 formatting, parsing pasted references, and the citation validator
 * that keeps a draft from citing anything that was not retrieved or supplied. Code owns the
 * numbering: the prompt numbers the sources 1..n, the validator drops every mark pointing
 * elsewhere, and `renumberCitations` numbers the cited sources by first citation (the sequential
 * system of GB/T 7714-2015 §10.1) for the reference list.
 */

export interface Source {
  /** The number the prompt gives it (1-based). */
  n: number;
  title: string;
  authors: string[];
  year: number | null;
  /** Journal, publisher, school, collection. */
  source: string | null;
  /** Document type code of GB/T 7714-2015: J journal, M book, D thesis, C proceedings, N newspaper, EB/OL online. */
  type: string;
  volume?: string | null;
  issue?: string | null;
  pages?: string | null;
  /** 'library' (the comparison library's record) or 'supplied' (pasted by the student). */
  origin: 'library' | 'supplied';
  /**
   * The library record's abstract (first 200 characters) and keywords, given to the model so it
   * cites what a source says rather than what its title suggests; absent on supplied references
   * and on drafts ordered before 2026-12.
   */
  abstract?: string | null;
  keywords?: string[];
}

const CJK = /[\u3400-\u9fff]/;

function formatAuthors(authors: readonly string[]): string {
  const names = authors.map((a) => a.trim()).filter(Boolean);
  if (names.length === 0) return '';
  const chinese = names.some((n) => CJK.test(n));
  const shown = names.slice(0, 3).map((n) => (chinese ? n : n.toUpperCase()));
  return names.length > 3 ? `${shown.join(', ')}, ${chinese ? '等' : 'et al'}` : shown.join(', ');
}

/** A journal, publisher or school as the reference list prints it (without 《》). */
export function plainSourceName(source: string | null | undefined): string {
  return (source ?? '').replace(/[《》]/g, '').trim();
}

/** What a record lacks of what a reference should name (作者, 刊名 or 出版者, 年份). */
export function missingFields(s: Pick<Source, 'authors' | 'source' | 'year' | 'type'>): string[] {
  const missing: string[] = [];
  if (!s.authors.some((a) => a.trim())) missing.push('作者');
  if (!plainSourceName(s.source)) missing.push(s.type === 'J' ? '刊名' : '出处');
  if (!s.year) missing.push('年份');
  return missing;
}

/**
 * One entry in GB/T 7714-2015 form (without its [n]). A record that lacks authors, journal or year
 * says so in the entry (`［文献库记录未载明：作者、刊名、年份，请查证原文后补全］`) rather than
 * leaving the reader to think the entry is complete.
 */
export function formatGbt7714(s: Omit<Source, 'n' | 'origin'>): string {
  const authors = formatAuthors(s.authors);
  const head = `${authors ? `${authors}. ` : ''}${s.title}[${s.type}]`;
  const year = s.year ? String(s.year) : '';
  const where = plainSourceName(s.source);
  let entry: string;
  if (s.type === 'J') {
    // 刊名, 年, 卷(期): 页码 — or 刊名, 年(期): 页码 when the journal has no volumes.
    let tail = [where, year].filter(Boolean).join(', ');
    if (s.volume) tail += `${tail ? ', ' : ''}${s.volume}`;
    if (s.issue) tail += s.volume || year ? `(${s.issue})` : `${tail ? ', ' : ''}(${s.issue})`;
    if (s.pages) tail += `: ${s.pages}`;
    entry = tail ? `${head}. ${tail}.` : `${head}.`;
  } else if (s.type === 'M' || s.type === 'D') {
    const tail = [where, year].filter(Boolean).join(', ');
    entry = tail ? `${head}. ${tail}${s.pages ? `: ${s.pages}` : ''}.` : `${head}.`;
  } else {
    const tail = [where, year].filter(Boolean).join(', ');
    entry = tail ? `${head}. ${tail}.` : `${head}.`;
  }
  const missing = missingFields(s);
  return missing.length > 0 ? `${entry}${MISSING_NOTE(missing)}` : entry;
}

/** The note of an entry whose record lacks fields. */
export const MISSING_NOTE = (missing: readonly string[]) =>
  `［记录未载明${missing.join('、')}，请查证原文后补全］`;

export interface ParsedReference {
  raw: string;
  /** Null when the line could not be read as a reference. */
  fields: Omit<Source, 'n' | 'origin'> | null;
  formatted: string | null;
}

/**
 * Reads pasted references, one per line (numbering like [1], 1. or （1） is dropped), in the usual
 * `作者. 题名[J]. 刊名, 年, 卷(期): 页码.` shape and close variants; a line it cannot read comes back
 * with `fields: null` rather than a guess.
 */
export function parseReferences(text: string): ParsedReference[] {
  const out: ParsedReference[] = [];
  for (const line of text.split(/\r?\n/)) {
    const raw = line.trim();
    if (!raw) continue;
    const body = raw.replace(/^(\[\d+\]|［\d+］|\(\d+\)|（\d+）|\d+[.、．])\s*/, '').replace(/．/g, '.');
    const m = /^(.+?)[.。]\s*(.+?)\s*\[([A-Z]{1,2}(?:\/OL)?)\]\s*[.。]?\s*(.*)$/.exec(body);
    if (!m) {
      out.push({ raw, fields: null, formatted: null });
      continue;
    }
    const authors = m[1]!
      .split(/[,，、;；]/)
      .map((a) => a.trim())
      .filter((a) => a && a !== '等' && !/^et al\.?$/i.test(a));
    const rest = m[4]!
      .replace(/[.。]\s*$/, '')
      .replace(/，/g, ',')
      .replace(/：/g, ':')
      .replace(/[（）]/g, (c) => (c === '（' ? '(' : ')'));
    const year = /(?<!\d)(1[89]\d{2}|20\d{2})(?!\d)/.exec(rest)?.[1];
    const sourceName = rest.split(',')[0]?.trim() || null;
    // 卷(期) after the year (`2019, 39(5)`), or 年(期) when the journal has no volumes (`2018(11)`).
    const volIssue = /,\s*(\d+)\s*\((\d+)\)/.exec(rest) ?? /,\s*\((\d+)\)/.exec(rest);
    const volume = volIssue && volIssue.length === 3 && volIssue[1] !== year ? volIssue[1]! : null;
    const pages = /:\s*([\d\-–]+)\s*$/.exec(rest)?.[1] ?? null;
    const fields = {
      title: m[2]!.trim(),
      authors,
      year: year ? Number(year) : null,
      source: sourceName && sourceName !== year && !/^\d/.test(sourceName) ? sourceName : null,
      type: m[3]!,
      volume,
      issue: volIssue ? volIssue[volIssue.length - 1]! : null,
      pages,
    };
    out.push({ raw, fields, formatted: formatGbt7714(fields) });
  }
  return out;
}

const MARK = /\[(\d{1,3}(?:\s*[,，\-–]\s*\d{1,3})*)\]/g;

function numbersOf(inner: string): number[] {
  const out: number[] = [];
  for (const part of inner.split(/\s*[,，]\s*/)) {
    const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      for (let i = Math.min(a, b); i <= Math.max(a, b) && i - Math.min(a, b) < 50; i += 1) out.push(i);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
  }
  return out;
}

/**
 * Keeps only citation marks whose every number is an allowed source; a mark citing something else
 * keeps its allowed numbers or disappears. Returns the text and how many numbers were dropped.
 */
export function validateCitations(
  text: string,
  allowed: ReadonlySet<number>,
): { text: string; removed: number } {
  let removed = 0;
  const cleaned = text.replace(MARK, (_whole, inner: string) => {
    const numbers = numbersOf(inner);
    const kept = [...new Set(numbers.filter((n) => allowed.has(n)))];
    removed += numbers.length - numbers.filter((n) => allowed.has(n)).length;
    return kept.length > 0 ? `[${kept.join(',')}]` : '';
  });
  return { text: cleaned, removed };
}

/** Every cited number in the text, in order of appearance. */
export function citedNumbers(text: string): number[] {
  return Array.from(text.matchAll(MARK), (m) => numbersOf(m[1]!)).flat();
}

/**
 * Numbers the sources by first citation across `texts` (GB/T 7714 sequential system) and rewrites
 * the marks; sources never cited are left out of the list.
 */
export function renumberCitations(
  texts: readonly string[],
  sources: readonly Source[],
): { texts: string[]; list: { n: number; source: Source }[] } {
  const byN = new Map(sources.map((s) => [s.n, s]));
  const order = new Map<number, number>();
  for (const text of texts) {
    for (const n of citedNumbers(text)) if (byN.has(n) && !order.has(n)) order.set(n, order.size + 1);
  }
  const rewritten = texts.map((text) =>
    text.replace(MARK, (_whole, inner: string) => {
      const mapped = [...new Set(numbersOf(inner).flatMap((n) => (order.has(n) ? [order.get(n)!] : [])))];
      return mapped.length > 0 ? `[${mapped.sort((a, b) => a - b).join(',')}]` : '';
    }),
  );
  const list = [...order.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([old, n]) => ({ n, source: byN.get(old)! }));
  return { texts: rewritten, list };
}

const STOP_WORDS = new Set([
  'and',
  'the',
  'for',
  'with',
  'from',
  'into',
  'its',
  'their',
  'based',
  'study',
  'analysis',
  'research',
  'on',
  'of',
  'in',
]);

/** Search terms of a topic: the topic split at punctuation and function words, plus its CJK bigrams. */
export function termsOf(topic: string): string[] {
  const parts = topic
    .split(/[\s,，。.、;；:：“”"'《》()（）\-—的与和及在对中研究分析基于]+/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 2);
  // Chinese phrases up to 8 characters; other words (English, AI, 5G) unless they are stop words.
  const terms = new Set<string>(
    parts.filter((p) => (CJK.test(p) ? p.length <= 8 : p.length <= 40 && !STOP_WORDS.has(p.toLowerCase()))),
  );
  for (const p of parts) {
    if (p.length > 4 && CJK.test(p)) for (let i = 0; i + 2 <= p.length; i += 2) terms.add(p.slice(i, i + 2));
  }
  return [...terms].slice(0, 12);
}
