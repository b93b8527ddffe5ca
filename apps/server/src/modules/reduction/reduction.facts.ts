/**
 * What a rewrite must keep unchanged: citation marks, formulas, quotations, numbers with their
 * units, book titles and Latin-script terms. `factsOf` lists them in a paragraph; `checkFacts`
 * says which of them a rewrite lost. The job checks every rewrite with it and never delivers one
 * that lost a fact (rewrite again, else keep the original paragraph).
 */

const UNITS =
  '%|％|‰|℃|°C|°|万元|亿元|万|亿|元|岁|年|个月|月|日|天|小时|分钟|秒|倍|次|人|名|位|个|项|篇|家|所|种|台|件|吨|千克|公斤|克|千米|公里|平方米|米|厘米|毫米|升|毫升|[a-zA-Zμ]{1,6}(?![a-zA-Z])';

/** Ordered: earlier patterns win where they overlap (a citation's year is not a separate number). */
const FACT_PATTERNS: readonly RegExp[] = [
  // Citation marks: [1], [1,3], [2-5], ［1］, (张三, 2020), （Smith et al., 2019）.
  /[[［]\d{1,3}(?:\s*[,，、\-–~]\s*\d{1,3})*[\]］]/gu,
  /[(（][^()（）\n]{1,40}?[,，]\s*(?:19|20)\d{2}[a-z]?[)）]/gu,
  // Quotations.
  /“[^”\n]{1,200}”|「[^」\n]{1,200}」|"[^"\n]{1,200}"/gu,
  // Book and article titles.
  /《[^》\n]{1,80}》/gu,
  // Formulas: something = something, with Latin letters, digits or operators around it.
  /[A-Za-z0-9_()（）^+\-*/×÷.\s]{1,40}[=≈≤≥<>][A-Za-z0-9_()（）^+\-*/×÷.\s]{1,40}/gu,
  // Numbers with an optional unit (dates as a whole).
  new RegExp(`\\d+(?:[.,，]\\d+)*(?:\\s*(?:${UNITS}))?`, 'gu'),
  // Latin-script terms and abbreviations (CNN, BERT-base, SPSS).
  /[A-Za-z][A-Za-z0-9\-+.]*(?:\s+[A-Z][A-Za-z0-9\-+.]*)*/gu,
];

export interface Fact {
  text: string;
  start: number;
  end: number;
}

/** The facts of a text, in order, without overlaps. */
export function factsOf(text: string): Fact[] {
  const taken: boolean[] = new Array(text.length).fill(false);
  const facts: Fact[] = [];
  for (const pattern of FACT_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const raw = m[0];
      const lead = raw.length - raw.trimStart().length;
      const value = raw.trim();
      if (value.length === 0) continue;
      const start = (m.index ?? 0) + lead;
      const end = start + value.length;
      // A formula needs an operator between operands, not only spaces and digits.
      if (pattern === FACT_PATTERNS[4] && !/[A-Za-z0-9)）]\s*[=≈≤≥<>]\s*[-+]?\s*[A-Za-z0-9(（]/u.test(value))
        continue;
      let free = true;
      for (let i = start; i < end; i += 1) if (taken[i]) free = false;
      if (!free) continue;
      for (let i = start; i < end; i += 1) taken[i] = true;
      facts.push({ text: value, start, end });
    }
  }
  return facts.sort((a, b) => a.start - b.start);
}

function countOf(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) n += 1;
  return n;
}

/** Facts of `original` that `rewrite` does not contain as often (whitespace inside ignored). */
export function lostFacts(original: string, rewrite: string): string[] {
  const squeeze = (s: string) => s.replace(/\s+/g, '');
  const target = squeeze(rewrite);
  const needed = new Map<string, number>();
  for (const f of factsOf(original)) {
    const key = squeeze(f.text);
    needed.set(key, (needed.get(key) ?? 0) + 1);
  }
  const lost: string[] = [];
  for (const [fact, count] of needed) if (countOf(target, fact) < count) lost.push(fact);
  return lost;
}

/** Every fact occurrence of a set of paragraphs, as the benchmark counts them. */
export function countFacts(texts: readonly string[]): number {
  return texts.reduce((s, t) => s + factsOf(t).length, 0);
}
