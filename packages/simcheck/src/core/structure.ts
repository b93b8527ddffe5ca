/**
 * Document structure from the text alone: chapter and section headings of Chinese theses, the
 * reference list, and quotations followed (or introduced) by a citation.
 *
 * Works on plain text; headings found by an extractor (.docx styles) can be passed as hints and are
 * merged in. All offsets are UTF-16 indices into the original text.
 */

export type SectionKind =
  | 'front' // text before the first heading (title page, author ...)
  | 'abstract'
  | 'toc'
  | 'body'
  | 'references'
  | 'acknowledgements'
  | 'appendix'
  | 'notes'; // footnotes/endnotes gathered after the body (the extractor puts them under 注释)

export type Heading = {
  readonly start: number;
  readonly end: number;
  readonly level: number;
  readonly text: string;
  readonly kind: SectionKind;
};

export type Section = {
  readonly title: string;
  readonly level: number;
  readonly kind: SectionKind;
  readonly start: number;
  readonly end: number;
};

export type DocumentStructure = {
  /** Every heading found, in order. */
  readonly headings: readonly Heading[];
  /** Top-level sections partitioning the whole text (chapters, 摘要, 参考文献, 致谢 ...). */
  readonly sections: readonly Section[];
  /** Ranges of the reference list(s), excluded from detection and the rate. */
  readonly references: readonly (readonly [number, number])[];
  /** Quotations with a citation mark, including the quote marks and the citation. */
  readonly quotations: readonly (readonly [number, number])[];
};

export type HeadingHint = { start: number; end: number; level: number; text: string };

const CN_NUM = '一二三四五六七八九十百零〇两';
const SPECIAL: readonly [RegExp, SectionKind][] = [
  [/^(中文)?摘\s*要$|^abstract$|^英文摘要$/i, 'abstract'],
  [/^目\s*录$|^contents$/i, 'toc'],
  [/^(主要)?参\s*考\s*文\s*献$|^参考资料$|^references$|^bibliography$/i, 'references'],
  [/^致\s*谢$|^后\s*记$|^acknowledge?ments?$/i, 'acknowledgements'],
  [/^附\s*录/, 'appendix'],
  [/^注\s*释$|^脚\s*注$|^尾\s*注$/, 'notes'],
];
// Inline forms: "摘要：本文……", "Abstract: This ..." start the abstract on the same line.
const INLINE_ABSTRACT = /^(摘\s*要|abstract)\s*[:：]/i;

const CHAPTER = new RegExp(`^第\\s*[${CN_NUM}\\d]+\\s*[章篇部]`);
const SECTION_CN = new RegExp(`^第\\s*[${CN_NUM}\\d]+\\s*节`);
const NUMBERED = /^(\d{1,2}(?:[.．]\d{1,2}){0,3})(?:[.．、]|\s+|(?=[\u4e00-\u9fff]))\s*\S/;
const CN_ENUM = new RegExp(`^[${CN_NUM}]{1,3}\\s*[、.．]`);
const CN_PAREN = new RegExp(`^[（(]\\s*[${CN_NUM}]{1,3}\\s*[）)]`);

function stripTitle(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Classify one trimmed line as a heading or not. Returns level and kind, or null. */
function classifyLine(line: string, hasChapters: boolean): { level: number; kind: SectionKind } | null {
  const compact = line.replace(/[\s:：]+$/, '').replace(/\s+/g, '');
  for (const [re, kind] of SPECIAL) if (re.test(compact)) return { level: 1, kind };
  if (line.length > 40) return null;
  // A heading does not end like a sentence.
  if (/[。；;，,！？!?]$/.test(line)) return null;
  if (CHAPTER.test(line)) return { level: 1, kind: 'body' };
  if (SECTION_CN.test(line)) return { level: 2, kind: 'body' };
  const num = NUMBERED.exec(line);
  if (num) {
    const depth = num[1]!.split(/[.．]/).length;
    // "1 绪论" is a chapter only in documents without 第X章; there "1." style lists are too risky.
    if (depth === 1 && (hasChapters || !/^\d{1,2}\s+\S/.test(line))) return null;
    return { level: depth, kind: 'body' };
  }
  if (CN_ENUM.test(line)) return { level: hasChapters ? 2 : 1, kind: 'body' };
  if (CN_PAREN.test(line)) return { level: hasChapters ? 3 : 2, kind: 'body' };
  return null;
}

function findHeadings(text: string, hints: readonly HeadingHint[]): Heading[] {
  const lines: { start: number; end: number; text: string }[] = [];
  let pos = 0;
  for (const raw of text.split('\n')) {
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) lines.push({ start: pos + lead, end: pos + lead + trimmed.length, text: trimmed });
    pos += raw.length + 1;
  }
  const hasChapters = lines.some((l) => l.text.length <= 40 && CHAPTER.test(l.text));
  const out: Heading[] = [];
  for (const line of lines) {
    const inline = INLINE_ABSTRACT.exec(line.text);
    if (inline) {
      out.push({
        start: line.start,
        end: line.start + inline[0].length,
        level: 1,
        text: inline[1]!,
        kind: 'abstract',
      });
      continue;
    }
    const c = classifyLine(line.text, hasChapters);
    if (c)
      out.push({
        start: line.start,
        end: line.end,
        level: c.level,
        text: stripTitle(line.text),
        kind: c.kind,
      });
  }
  for (const hint of hints) {
    if (out.some((h) => h.start < hint.end && hint.start < h.end)) continue;
    const title = stripTitle(hint.text);
    const special = SPECIAL.find(([re]) => re.test(title.replace(/\s+/g, '')));
    out.push({
      start: hint.start,
      end: hint.end,
      level: special ? 1 : Math.max(1, hint.level),
      text: title,
      kind: special ? special[1] : 'body',
    });
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}

/** Citation mark right after a closing quote: [3], ［3］, [1-3], ^[3], (张三, 2019), （Smith et al., 2019）. */
const CITATION_AFTER =
  /^[\s。，,.;；]{0,2}(?:\^?\s*[[［]\s*\d+(?:\s*[-–—,，、]\s*\d+)*\s*[\]］]|[(（][^()（）\n]{1,60}?[,，\s]\s*(?:19|20)\d{2}[a-z]?(?:[:：]\s*\d+(?:-\d+)?)?\s*[)）])/;
/** A citation just before an opening quote: 张三（2019）指出：“ / 文献[3]认为：“ */
const CITATION_BEFORE =
  /(?:[[［]\s*\d+(?:\s*[-–—,，、]\s*\d+)*\s*[\]］]|[(（]\s*(?:19|20)\d{2}[a-z]?\s*[)）]|[(（][^()（）\n]{1,40}?[,，]\s*(?:19|20)\d{2}[a-z]?\s*[)）])[^“「『\n]{0,12}[:：,，]?\s*$/;

/** Opening quote -> its closing quote (“” 「」 『』), as UTF-16 code units. */
const QUOTE_PAIRS = new Map([
  [0x201c, 0x201d],
  [0x300c, 0x300d],
  [0x300e, 0x300f],
]);

function findQuotations(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    const open = text.charCodeAt(i);
    if (open !== 0x201c && open !== 0x300c && open !== 0x300e) continue;
    const close = QUOTE_PAIRS.get(open)!;
    // Find the matching close quote (same pair, allowing nesting of the same pair), within 1,000 units.
    let depth = 0;
    let j = i + 1;
    for (; j < text.length && j - i < 1000; j++) {
      const ch = text.charCodeAt(j);
      if (ch === open) depth++;
      else if (ch === close) {
        if (depth === 0) break;
        depth--;
      }
    }
    if (j >= text.length || text.charCodeAt(j) !== close) continue;
    const after = CITATION_AFTER.exec(text.slice(j + 1, j + 90));
    if (after) {
      out.push([i, j + 1 + after[0].length]);
      i = j;
      continue;
    }
    const before = text.slice(Math.max(0, i - 60), i);
    if (CITATION_BEFORE.test(before)) {
      out.push([i, j + 1]);
      i = j;
    }
  }
  return out;
}

/**
 * Find headings, top-level sections, the reference list and cited quotations.
 * @param hints headings reported by the extractor (e.g. .docx heading styles), merged with the
 *   headings recognised from the text.
 */
export function analyzeStructure(text: string, hints: readonly HeadingHint[] = []): DocumentStructure {
  const headings = findHeadings(text, hints);
  const top = headings.filter((h) => h.level === 1);
  const sections: Section[] = [];
  const firstStart = top.length > 0 ? top[0]!.start : text.length;
  if (text.slice(0, firstStart).trim().length > 0) {
    const firstLine = text.slice(0, firstStart).trim().split('\n')[0]!.trim();
    sections.push({
      title: top.length > 0 ? firstLine.slice(0, 40) : '全文',
      level: 1,
      kind: top.length > 0 ? 'front' : 'body',
      start: 0,
      end: firstStart,
    });
  }
  for (let i = 0; i < top.length; i++) {
    const h = top[i]!;
    sections.push({
      title: h.text,
      level: 1,
      kind: h.kind,
      start: h.start,
      end: i + 1 < top.length ? top[i + 1]!.start : text.length,
    });
  }
  // A reference list heading at a lower level (e.g. "参考文献" under the last chapter) still counts.
  const references: [number, number][] = [];
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i]!;
    if (h.kind !== 'references') continue;
    let end = text.length;
    for (let j = i + 1; j < headings.length; j++) {
      if (headings[j]!.level <= h.level && headings[j]!.kind !== 'references') {
        end = headings[j]!.start;
        break;
      }
    }
    references.push([h.start, end]);
  }
  return { headings, sections, references, quotations: findQuotations(text) };
}
