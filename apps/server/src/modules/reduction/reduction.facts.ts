/**
 * What a rewrite must keep, checked by code (decision 0027). `checkRewrite(original, rewrite)`
 * answers the rules the rewrite broke, each with what it saw; the job never delivers a rewrite that
 * broke one (it asks again, then keeps the original paragraph and names the rule).
 *
 * - number: every number of the original, as a whole token with its sign and unit
 *   (reduction.numbers.ts: 8所 ≠ 18所, -3.2% ≠ 3.2%, 3.42亿 = 34200万), is in the rewrite, in the
 *   counterpart of its sentence; no new number appears.
 * - name: every person, place and organisation name (word segmentation with part of speech,
 *   reduction.segment.ts) is still there.
 * - direction: 增长/下降, 提高/降低, 正/负相关, 显著/不显著, 高于/低于… keep their sense (a
 *   negation right before such a word turns it round).
 * - negation: as many negations (不, 未, 没有, 无…) as the original has.
 * - dropped: every sentence of the original has a counterpart in the rewrite.
 * - added: no new number, name, citation, title or claim sentence.
 * - citation, quote, title, formula, term: citation marks, quotations, 《titles》, formulas and
 *   Latin-script terms stay character for character.
 * - length: between half and twice the original.
 */
import { type NumberToken, numberKey, numbersOf } from './reduction.numbers.ts';
import { namesOf, wordsOf } from './reduction.segment.ts';

export type FactRule =
  | 'number'
  | 'name'
  | 'direction'
  | 'negation'
  | 'dropped'
  | 'added'
  | 'citation'
  | 'quote'
  | 'title'
  | 'formula'
  | 'term'
  | 'length';

export interface Violation {
  rule: FactRule;
  /** What was seen, e.g. '8所 → 18所'. */
  detail: string;
}

// --- literal facts --------------------------------------------------------------------------------

type LiteralKind = 'citation' | 'quote' | 'title' | 'formula' | 'term';

/** Ordered: earlier patterns win where they overlap (a citation's year is not a separate number). */
const LITERAL_PATTERNS: readonly { kind: LiteralKind; re: RegExp }[] = [
  // Citation marks: [1], [1,3], [2-5], ［1］, (张三, 2020), （Smith et al., 2019）.
  { kind: 'citation', re: /[[［]\d{1,3}(?:\s*[,，、\-–~]\s*\d{1,3})*[\]］]/gu },
  { kind: 'citation', re: /[(（][^()（）\n]{1,40}?[,，]\s*(?:19|20)\d{2}[a-z]?[)）]/gu },
  // The year of an author-year citation: 张华（2019）, 李明等（2020）, Smith et al. (2019) (the names are the name rule's).
  { kind: 'citation', re: /[(（](?:19|20)\d{2}[a-z]?[)）]/gu },
  // DOIs and web addresses.
  { kind: 'citation', re: /\b10\.\d{4,9}\/[^\s，。；]+|https?:\/\/[^\s，。；）)]+/gu },
  // Quotations.
  { kind: 'quote', re: /“[^”\n]{1,200}”|「[^」\n]{1,200}」|"[^"\n]{1,200}"/gu },
  // Book and article titles.
  { kind: 'title', re: /《[^》\n]{1,80}》/gu },
  // Formulas: something = something, with Latin letters, digits or operators around it.
  {
    kind: 'formula',
    re: /[A-Za-z\p{Script=Greek}0-9_()（）^+\-*/×÷.\s]{1,40}[=≈≤≥<>][A-Za-z\p{Script=Greek}0-9_()（）^+\-*/×÷.\s]{1,40}/gu,
  },
  // Latin-script terms and abbreviations (CNN, BERT-base, SPSS, GPT-4).
  { kind: 'term', re: /[A-Za-z][A-Za-z0-9\-+.]*(?:\s+[A-Z][A-Za-z0-9\-+.]*)*/gu },
];

export interface Fact {
  kind: LiteralKind | 'number';
  text: string;
  start: number;
  end: number;
}

/** The literal facts of a text (citations, quotations, titles, formulas, terms), in order, without overlaps. */
function literalsOf(text: string): Fact[] {
  const taken: boolean[] = new Array(text.length).fill(false);
  const facts: Fact[] = [];
  for (const { kind, re } of LITERAL_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const raw = m[0];
      const lead = raw.length - raw.trimStart().length;
      const value = raw.trim().replace(/[.,]$/u, '');
      if (value.length === 0) continue;
      const start = (m.index ?? 0) + lead;
      const end = start + value.length;
      // A formula needs an operator between operands, not only spaces and digits.
      if (
        kind === 'formula' &&
        !/[A-Za-z\p{Script=Greek}0-9)）]\s*[=≈≤≥<>]\s*[-+]?\s*[A-Za-z\p{Script=Greek}0-9(（]/u.test(value)
      )
        continue;
      // A unit right after a number (5kg, 3 GB) belongs to the number.
      if (kind === 'term' && /\d\s*$/u.test(text.slice(Math.max(0, start - 2), start)) && value.length <= 5)
        continue;
      let free = true;
      for (let i = start; i < end; i += 1) if (taken[i]) free = false;
      if (!free) continue;
      for (let i = start; i < end; i += 1) taken[i] = true;
      facts.push({ kind, text: value, start, end });
    }
  }
  return facts.sort((a, b) => a.start - b.start);
}

/** The text with the literal facts blanked out (same length), for the number and word rules. */
function withoutLiterals(text: string, literals: readonly Fact[]): string {
  let out = '';
  let at = 0;
  for (const f of literals) {
    out += text.slice(at, f.start) + '　'.repeat(f.end - f.start);
    at = f.end;
  }
  return out + text.slice(at);
}

/**
 * Everything the prompt asks the model to keep character for character: literal facts and the
 * numbers with their units, in order.
 */
export function factsOf(text: string): Fact[] {
  const literals = literalsOf(text);
  const numbers = numbersOf(withoutLiterals(text, literals)).map(
    (n): Fact => ({ kind: 'number', text: n.text, start: n.start, end: n.end }),
  );
  return [...literals, ...numbers].sort((a, b) => a.start - b.start);
}

// --- sentences ------------------------------------------------------------------------------------

interface Sentence {
  text: string;
  start: number;
  end: number;
}

function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  // Full stops (a point only before a non-digit: 1.38 is a number); not ；, across which a
  // rewrite may legitimately move clauses.
  const re = /(?:[^。！？!?\n.．]|[.．](?=[\d\s]|$))+(?:(?:[。！？!?]|[.．](?![\d]))+[”’」』）)]*|$)/gu;
  for (const m of text.matchAll(re)) {
    const body = m[0];
    if (!/[\p{Script=Han}A-Za-z0-9]/u.test(body)) continue;
    out.push({ text: body, start: m.index ?? 0, end: (m.index ?? 0) + body.length });
  }
  return out;
}

/**
 * Character bigrams of the Han and Latin content (digits, punctuation and spaces dropped: numbers
 * have their own rule, and a number must not pull a sentence towards another).
 */
function bigramsOf(text: string): Set<string> {
  const chars = [...text.replace(/[^\p{Script=Han}A-Za-z]/gu, '')];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i += 1) out.add(chars[i]! + chars[i + 1]!);
  return out;
}

/** Bigrams that commonly carry no content of their own. */
const FUNCTION_BIGRAMS = new Set(
  '的是,是一,一个,我们,这一,这种,其中,以及,并且,而且,因此,所以,但是,然而,同时,此外,通过,进行,对于,关于,可以,能够,已经,目前,从而,本文,本研究,的研,的发,的影,了一,在于,之间,方面,问题,研究'
    .split(',')
    .filter((b) => [...b].length === 2),
);

/**
 * Share of `own` bigrams found in `other`. Used on the bigrams distinctive of one sentence (those
 * no other sentence of its text has): a dropped sentence's are all but gone from the rewrite, a
 * rewritten one keeps a part (its terms, names, numbers, some words).
 */
function coverage(own: ReadonlySet<string>, other: ReadonlySet<string>): number {
  let found = 0;
  for (const b of own) if (other.has(b)) found += 1;
  return own.size === 0 ? 1 : found / own.size;
}

function distinctive(sentences: readonly Sentence[]): Set<string>[] {
  const grams = sentences.map((s) => bigramsOf(s.text));
  return grams.map((own, i) => {
    const out = new Set<string>();
    for (const b of own) {
      if (FUNCTION_BIGRAMS.has(b)) continue;
      if (grams.some((g, j) => j !== i && g.has(b))) continue;
      out.add(b);
    }
    return out;
  });
}

/** Tuned on the paraphrase pairs (npm run bench:reduction prints the false rejection rate). */
const MIN_DISTINCTIVE = 6;
const DROPPED_BELOW = 0.12;
const ADDED_BELOW = 0.12;
const UNRELATED_BELOW = 0.05;

function shorten(s: string, max = 24): string {
  const t = s.trim();
  return [...t].length > max ? `${[...t].slice(0, max).join('')}…` : t;
}

/**
 * Which original sentences each rewrite sentence carries. Each original sentence picks the rewrite
 * sentences holding most of its distinctive bigrams (a split picks several, a merge is picked by
 * several); a sentence with too few distinctive bigrams uses all of its own.
 */
function align(source: readonly Sentence[], rewrite: readonly Sentence[]): Set<number>[] {
  const own = distinctive(source);
  const rewriteGrams = rewrite.map((r) => bigramsOf(r.text));
  const out = rewrite.map(() => new Set<number>());
  source.forEach((s, i) => {
    const grams = own[i]!.size >= 2 ? own[i]! : bigramsOf(s.text);
    const scores = rewriteGrams.map((g) => coverage(grams, g));
    const best = Math.max(0, ...scores);
    scores.forEach((score, j) => {
      if (best > 0 && score >= best * 0.5) out[j]!.add(i);
    });
  });
  return out;
}

function sentenceAt(sentences: readonly Sentence[], offset: number): number {
  return sentences.findIndex((s) => offset >= s.start && offset < s.end);
}

// --- direction and negation ------------------------------------------------------------------------

/** Pairs of senses: [dimension, words of one sense, words of the other]. Longest words first when matching. */
const POLAR: readonly (readonly [string, readonly string[], readonly string[]])[] = [
  [
    'change',
    [
      '增长',
      '增加',
      '上升',
      '上涨',
      '提高',
      '提升',
      '升高',
      '增强',
      '扩大',
      '加大',
      '加快',
      '加速',
      '增多',
      '攀升',
      '递增',
      '增大',
      '回升',
      '走高',
      '改善',
      '好转',
    ],
    [
      '下降',
      '减少',
      '降低',
      '下滑',
      '下跌',
      '减弱',
      '缩小',
      '减小',
      '减缓',
      '放缓',
      '递减',
      '回落',
      '萎缩',
      '走低',
      '恶化',
      '衰退',
    ],
  ],
  [
    'correlation',
    ['正相关', '正向相关', '正向关联', '正向影响', '正向作用'],
    ['负相关', '负向相关', '负向关联', '负向影响', '负向作用'],
  ],
  [
    'effect',
    ['促进', '推动', '有利于', '有助于', '积极影响', '积极作用'],
    ['抑制', '阻碍', '不利于', '制约', '消极影响', '消极作用'],
  ],
  ['significance', ['显著', '明显'], []],
  [
    'comparison',
    ['高于', '大于', '多于', '优于', '强于', '快于', '领先于', '超过'],
    ['低于', '小于', '少于', '劣于', '弱于', '慢于', '落后于', '不及'],
  ],
  ['relation', ['有关', '相关', '关联'], ['无关']],
];

const NEGATORS = new Set([
  '不',
  '未',
  '没',
  '没有',
  '无',
  '非',
  '并非',
  '并不',
  '并未',
  '未能',
  '尚未',
  '从未',
  '无法',
  '不能',
  '不会',
  '不再',
  '不可',
  '毫无',
  '绝非',
  '未曾',
  '不必',
  '不宜',
  '勿',
  '否',
  '未见',
  '不是',
  '缺乏',
  '缺少',
]);

interface Polar {
  dim: string;
  sense: 1 | -1;
  word: string;
  start: number;
  end: number;
}

const POLAR_WORDS = POLAR.flatMap(([dim, up, down]) => [
  ...up.map((w) => ({ dim, sense: 1 as const, word: w })),
  ...down.map((w) => ({ dim, sense: -1 as const, word: w })),
]).sort((a, b) => b.word.length - a.word.length);
const POLAR_RE = new RegExp(POLAR_WORDS.map((p) => p.word).join('|'), 'gu');
const POLAR_BY_WORD = new Map(POLAR_WORDS.map((p) => [p.word, p]));

function negatorsOf(text: string): { start: number; end: number; word: string }[] {
  return (
    wordsOf(text)
      .filter((w) => NEGATORS.has(w.word))
      // 能不能, 会不会, 是不是, 有没有: a question, not a negation.
      .filter((w) => text[w.start - 1] === undefined || text[w.start - 1] !== w.word.at(-1))
      .map((w) => ({ start: w.start, end: w.end, word: w.word }))
  );
}

/**
 * The direction words of a text; a negation turns round every direction word after it up to the
 * end of its clause (未见明显提高: both 明显 and 提高). `free`: negations that turn none round.
 */
function polarsOf(
  text: string,
  negators: { start: number; end: number }[],
): { polars: Polar[]; free: number } {
  const polars: Polar[] = [];
  const attached = new Set<number>();
  for (const m of text.matchAll(POLAR_RE)) {
    const p = POLAR_BY_WORD.get(m[0])!;
    const start = m.index ?? 0;
    let sense = p.sense;
    let from = start;
    negators.forEach((x, n) => {
      if (x.end > start || /[，,。；;！？!?]/u.test(text.slice(x.end, start))) return;
      sense = -sense as 1 | -1;
      attached.add(n);
      from = Math.min(from, x.start);
    });
    polars.push({
      dim: p.dim,
      sense,
      word: text.slice(from, start + m[0].length),
      start,
      end: start + m[0].length,
    });
  }
  return { polars, free: negators.length - attached.size };
}

function directionViolations(original: string, rewrite: string): Violation[] {
  const on = negatorsOf(original);
  const rn = negatorsOf(rewrite);
  const o = polarsOf(original, on);
  const r = polarsOf(rewrite, rn);
  const out: Violation[] = [];
  const count = (ps: Polar[], dim: string, sense: number) =>
    ps.filter((p) => p.dim === dim && p.sense === sense).length;
  for (const [dim] of POLAR) {
    for (const sense of [1, -1] as const) {
      // One more of this sense and one fewer of the other: the sense turned round.
      if (
        count(r.polars, dim, sense) > count(o.polars, dim, sense) &&
        count(r.polars, dim, -sense) < count(o.polars, dim, -sense)
      ) {
        const was = o.polars.find((p) => p.dim === dim && p.sense === -sense)!;
        const now =
          r.polars.find(
            (p) =>
              p.dim === dim &&
              p.sense === sense &&
              !o.polars.some((q) => q.word === p.word && q.sense === sense),
          ) ?? r.polars.find((p) => p.dim === dim && p.sense === sense)!;
        out.push({ rule: 'direction', detail: `${was.word} → ${now.word}` });
      }
    }
  }
  if (out.length === 0 && o.free !== r.free) {
    const words = (ns: { word: string }[]) => (ns.length ? `（${ns.map((n) => n.word).join('、')}）` : '');
    out.push({
      rule: 'negation',
      detail: `否定词 ${on.length} 个${words(on)} → ${rn.length} 个${words(rn)}`,
    });
  }
  return out;
}

/** The text with its numbers blanked out (万人 after 34200 is no name). */
function withoutNumbers(text: string): string {
  let out = text;
  for (const n of numbersOf(text))
    out = out.slice(0, n.start) + '　'.repeat(n.end - n.start) + out.slice(n.end);
  return out;
}

// --- the check ------------------------------------------------------------------------------------

function numberViolations(
  source: { text: string; sentences: Sentence[]; numbers: NumberToken[] },
  rewrite: { text: string; sentences: Sentence[]; numbers: NumberToken[] },
  aligned: Set<number>[],
): Violation[] {
  const unmatched = [...rewrite.numbers];
  const lost: NumberToken[] = [];
  const moved: NumberToken[] = [];
  for (const n of source.numbers) {
    const key = numberKey(n);
    const candidates = unmatched.filter((m) => numberKey(m) === key);
    if (candidates.length === 0) {
      lost.push(n);
      continue;
    }
    const si = sentenceAt(source.sentences, n.start);
    const inPlace = candidates.find((m) => aligned[sentenceAt(rewrite.sentences, m.start)]?.has(si));
    const pick = inPlace ?? candidates[0]!;
    if (!inPlace && source.sentences.length > 1 && rewrite.sentences.length > 1) moved.push(n);
    unmatched.splice(unmatched.indexOf(pick), 1);
  }
  const out: Violation[] = [];
  lost.forEach((n, i) => {
    const instead = unmatched[i];
    out.push({ rule: 'number', detail: instead ? `${n.text} → ${instead.text}` : `${n.text} 缺失` });
  });
  for (const n of unmatched.slice(lost.length)) out.push({ rule: 'added', detail: `新增数字 ${n.text}` });
  for (const n of moved) out.push({ rule: 'number', detail: `${n.text} 移到了别的句子` });
  return out;
}

/**
 * The rules `rewrite` breaks as a rewrite of `original` (empty: it may be delivered). Both are
 * single paragraphs; the sandbox mark and surrounding whitespace should be removed first.
 */
export function checkRewrite(original: string, rewrite: string): Violation[] {
  const out: Violation[] = [];
  const oLiterals = literalsOf(original);
  const rLiterals = literalsOf(rewrite);
  const oPlain = withoutLiterals(original, oLiterals);
  const rPlain = withoutLiterals(rewrite, rLiterals);
  const oSentences = sentencesOf(original);
  const rSentences = sentencesOf(rewrite);
  const aligned = align(oSentences, rSentences);

  out.push(
    ...numberViolations(
      { text: original, sentences: oSentences, numbers: numbersOf(oPlain) },
      { text: rewrite, sentences: rSentences, numbers: numbersOf(rPlain) },
      aligned,
    ),
  );

  const oNames = namesOf(withoutNumbers(oPlain));
  const rNames = namesOf(withoutNumbers(rPlain));
  const squeezed = (s: string) => s.replace(/\s+/g, '');
  const rFlat = squeezed(rewrite);
  const oFlat = squeezed(original);
  const lostNames = oNames.filter((n) => !rFlat.includes(n.text));
  const newNames = rNames.filter((n) => !oFlat.includes(n.text));
  lostNames.forEach((n, i) => {
    const instead = newNames.find((x) => x.kind === n.kind) ?? newNames[i];
    out.push({ rule: 'name', detail: instead ? `${n.text} → ${instead.text}` : `${n.text} 缺失` });
  });
  for (const n of newNames.filter(
    (x) => !lostNames.length || !out.some((v) => v.detail.endsWith(`→ ${x.text}`)),
  ))
    out.push({ rule: 'added', detail: `新增名称 ${n.text}` });

  out.push(...directionViolations(oPlain, rPlain));

  // Every original sentence has a counterpart; no rewrite sentence is new.
  const rAll = bigramsOf(rewrite);
  const oAll = bigramsOf(original);
  // (One sentence against one: no other sentence to tell it from; only a rewrite that shares
  // next to nothing with the original counts.)
  if (oSentences.length > 1)
    distinctive(oSentences).forEach((own, i) => {
      if (own.size >= MIN_DISTINCTIVE && coverage(own, rAll) < DROPPED_BELOW)
        out.push({ rule: 'dropped', detail: `原句“${shorten(oSentences[i]!.text)}”没有对应的改写` });
    });
  else if (oSentences.length === 1 && oAll.size >= MIN_DISTINCTIVE && coverage(oAll, rAll) < UNRELATED_BELOW)
    out.push({ rule: 'dropped', detail: `改写与原句“${shorten(oSentences[0]!.text)}”几乎没有共同内容` });
  if (rSentences.length > 1)
    distinctive(rSentences).forEach((own, j) => {
      if (own.size >= MIN_DISTINCTIVE && coverage(own, oAll) < ADDED_BELOW)
        out.push({ rule: 'added', detail: `新增句子“${shorten(rSentences[j]!.text)}”` });
    });

  // Literal facts: as often as in the original; none the original does not have.
  const need = new Map<string, { kind: LiteralKind; count: number }>();
  for (const f of oLiterals) {
    const key = squeezed(f.text);
    const had = need.get(key);
    need.set(key, { kind: f.kind as LiteralKind, count: (had?.count ?? 0) + 1 });
  }
  for (const [text, { kind, count }] of need) {
    let n = 0;
    for (let at = rFlat.indexOf(text); at >= 0; at = rFlat.indexOf(text, at + text.length)) n += 1;
    if (n < count) out.push({ rule: kind, detail: `${text} 缺失或被改动` });
  }
  for (const f of rLiterals) {
    if (f.kind === 'term' || f.kind === 'formula' || f.kind === 'quote') continue;
    if (!oFlat.includes(squeezed(f.text)))
      out.push({ rule: 'added', detail: `新增${f.kind === 'title' ? '书名' : '引用'} ${f.text}` });
  }

  const ratio = rewrite.trim().length / Math.max(1, original.trim().length);
  if (ratio < 0.5 || ratio > 2)
    out.push({ rule: 'length', detail: `改写长度为原文的 ${Math.round(ratio * 100)}%` });
  return out;
}
