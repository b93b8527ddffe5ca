import { citedNumbers, plainSourceName, type Source, validateCitations } from './references.ts';

/**
 * Citations by construction. The reference list is built by code (references.ts, writing.docx.ts)
 * from the library's records and the student's own references; in the model's text only `[n]`
 * marks to those entries may survive. This file finds everything else that looks like a citation
 * and decides per pattern (docs/api/writing.md, "Citations"):
 *
 * | pattern | what happens |
 * | --- | --- |
 * | `[n]` to a number not given | removed (validateCitations) |
 * | author-year naming a listed source (`王明等（2021）`, surname and year agree) | becomes `王明等[n]` |
 * | any other author-year (`张三和李四（2021）`, `X等（2020）`, `Smith et al. (2020)`, `（张三，2019）`) | replaced by 有研究 / removed |
 * | DOI (`doi:10.…`, `10.1234/…`) and URL (`https://…`, `www.…`) | removed |
 * | 《刊名》 not in the list (a name of a periodical, or 发表于《…》, 《…》2020年第3期) | the mention is removed |
 * | a reference section in the body (参考文献 / References heading, GB/T-shaped `[n] …[J]` lines) | the section is regenerated; a last attempt drops it and every mark of the section |
 *
 * `citationFindings` is the audit: what is left that does not resolve. It runs on every section
 * after cleaning and on the whole text of the .docx before an order completes and before the
 * reference list may say 未编造任何文献.
 */

export type CitationKind = 'mark' | 'authorYear' | 'doi' | 'url' | 'journal' | 'referenceBlock';

export interface CitationFinding {
  kind: CitationKind;
  match: string;
}

/** What cleaning took out, by kind (the counts add to the section's removedCitations). */
export type RemovedCounts = Record<CitationKind, number>;

export const NO_REMOVALS: RemovedCounts = Object.freeze({
  mark: 0,
  authorYear: 0,
  doi: 0,
  url: 0,
  journal: 0,
  referenceBlock: 0,
});

export function totalRemoved(counts: RemovedCounts): number {
  return Object.values(counts).reduce((s, n) => s + n, 0);
}

// --- patterns ----------------------------------------------------------------------------------

const YEAR = '(?:19|20)\\d{2}[a-z]?';
/** `张三（2021）`, `张三和李四（2021）`, `王明等（2020）`, `刘洋等人(2019)`: the name part is found by the surname list. */
const CN_PAREN_YEAR = new RegExp(`(等人|等)?\\s*[（(]\\s*(${YEAR})\\s*[)）]`, 'g');
/** `（张三，2019）`, `(Smith et al., 2020; Lee, 2019)`, `（王明等，2021：35）`. */
const PAREN_AUTHOR_YEAR = new RegExp(
  `[（(]\\s*(?:[\\u4e00-\\u9fffA-Z][^（()）\\n:：]{0,39}?[,，]\\s*${YEAR}(?:\\s*[:：]\\s*[\\d\\-–]+)?\\s*(?:[;；]\\s*)?)+[)）]`,
  'g',
);
/** `Smith et al. (2020)`, `Smith and Lee (2019)`, `Smith (2018)`. */
const EN_NARRATIVE = new RegExp(
  `\\b([A-Z][a-z][A-Za-z'’\\-]*)(\\s+(?:and|&)\\s+[A-Z][a-z][A-Za-z'’\\-]*|\\s+et\\s+al\\.?)?\\s*\\(\\s*(${YEAR})\\s*\\)`,
  'g',
);
const DOI =
  /(?:\b(?:DOI|doi)\s*[:：]?\s*)?(?:https?:\/\/(?:dx\.)?doi\.org\/)?\b10\.\d{4,9}\/[^\s，。；;、）)\]】]+/g;
const URL = /\b(?:https?:\/\/|www\.)[^\s，。；;、）)\]】<>"'“”]+/gi;
const JOURNAL = /《([^《》\n]{2,40})》/g;
/** Names of periodicals: what a 《…》 naming a journal ends with. */
const PERIODICAL_END =
  /(学报|研究|杂志|评论|论坛|期刊|月刊|季刊|学刊|通讯|文摘|丛刊|导刊|导报|科学|世界|前沿|探索|纵横|年鉴|Journal|Review|Letters|Research)$/i;
const JOURNAL_LEAD = '(?:发表|刊载|刊发|刊登|刊|载)(?:于|在)\\s*';
const JOURNAL_TAIL = '(?:\\s*(?:19|20)\\d{2}\\s*年)?(?:\\s*第\\s*\\d+\\s*(?:卷|期))*';
const REFERENCE_HEADING =
  /^\s*(?:#{1,6}\s*|\*\*)?\s*(?:主要)?(?:参考文献|参考资料|引用文献|文献列表|References|Bibliography|Works Cited)\s*(?:\*\*)?\s*[:：]?\s*$/im;
const REFERENCE_LINE =
  /^\s*(?:\[\d{1,3}\]|［\d{1,3}］|\d{1,3}[.、．])\s*[^\n]{2,}?\[(?:J|M|D|C|N|R|S|P|G|Z|A|EB\/OL|J\/OL|M\/OL|DB)\]/m;

/** The 100 commonest Chinese surnames and the compound ones: where a name before （2021） starts. */
const SURNAMES = new Set(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝'
    .split('')
    .concat([
      '欧阳',
      '司马',
      '上官',
      '诸葛',
      '东方',
      '皇甫',
      '尉迟',
      '公孙',
      '慕容',
      '长孙',
      '宇文',
      '司徒',
      '夏侯',
      '令狐',
      '端木',
    ]),
);

/** The name(s) right before `end` in `text` (`张三和李四`, `王明`), by the surname list; '' when none. */
function namesBefore(text: string, end: number): string {
  // Longest first: two names joined by 和/与/、/及, then one name of 2-3 characters (4 for compound surnames).
  const before = text.slice(Math.max(0, end - 12), end);
  const one = (s: string) => {
    for (const len of [3, 2, 4]) {
      const name = s.slice(-len);
      // 和/与/及 are surnames too, but before a name they join two names.
      if (name.length === len && /^[\u4e00-\u9fff·]+$/.test(name) && !/^[和与及等]/.test(name)) {
        const surname = SURNAMES.has(name.slice(0, 2)) && len >= 3 ? name.slice(0, 2) : name[0]!;
        if (SURNAMES.has(surname)) return name;
      }
    }
    return '';
  };
  const last = one(before);
  if (!last) return '';
  const rest = before.slice(0, before.length - last.length);
  const joined = /(和|与|、|及)$/.exec(rest);
  if (joined) {
    const first = one(rest.slice(0, -1));
    if (first) return `${first}${joined[1]}${last}`;
  }
  return last;
}

// --- resolving an author-year to a listed source ---------------------------------------------------

function surnameOf(author: string): string {
  const a = author.trim();
  if (/[\u4e00-\u9fff]/.test(a)) return a;
  // "Smith J", "Smith, John", "John Smith": take the longest capitalised word.
  const words = a.split(/[\s,]+/).filter((w) => /^[A-Z][A-Za-z'’-]+$/.test(w));
  return words.sort((x, y) => y.length - x.length)[0] ?? a;
}

/** The listed source whose author and year the attribution names, if exactly one fits. */
function resolveAttribution(name: string, year: string, sources: readonly Source[]): Source | undefined {
  const y = Number(year.slice(0, 4));
  const first = name.split(/和|与|、|及|\s+(?:and|&)\s+/)[0]!.trim();
  const fits = sources.filter(
    (s) => s.year === y && s.authors.some((a) => a.trim() === first || surnameOf(a) === first),
  );
  return fits.length === 1 ? fits[0] : undefined;
}

// --- cleaning ----------------------------------------------------------------------------------------

export interface CleanOptions {
  /** The numbered sources the text may cite. */
  sources: readonly Source[];
  /** What an unresolved narrative attribution becomes: 有研究 in Chinese text, "Prior work" in English. */
  language: 'zh' | 'en';
  /** The last attempt: a reference section is dropped with every mark of the text instead of regenerating. */
  lastAttempt?: boolean;
}

export interface CleanResult {
  text: string;
  removed: RemovedCounts;
  /** Set when the text must be regenerated (a reference section in the body); the reason for the retry note. */
  regenerate: 'referenceBlock' | null;
}

/** Names a text may mention in 《》: the listed sources' journals and titles. */
function listedNames(sources: readonly Source[]): Set<string> {
  const names = new Set<string>();
  for (const s of sources) {
    const where = plainSourceName(s.source);
    if (where) names.add(where);
    names.add(s.title.trim());
  }
  return names;
}

function isJournalMention(name: string, before: string, after: string): boolean {
  return (
    PERIODICAL_END.test(name.trim()) ||
    new RegExp(`${JOURNAL_LEAD}$`).test(before) ||
    /^\s*(?:(?:19|20)\d{2}\s*年)?\s*第\s*\d+\s*期/.test(after)
  );
}

/** Cleans one text of the model (a section, a revision, the abstract) by the table above. */
export function cleanCitations(input: string, options: CleanOptions): CleanResult {
  const removed: RemovedCounts = { ...NO_REMOVALS };
  let text = input;

  // A reference section of the model's own: its [n] in the body may mean its own invented list.
  const heading = REFERENCE_HEADING.exec(text);
  const line = REFERENCE_LINE.exec(text);
  if (heading || line) {
    if (!options.lastAttempt) return { text: input, removed, regenerate: 'referenceBlock' };
    const cut = Math.min(heading?.index ?? text.length, line?.index ?? text.length);
    removed.referenceBlock += 1;
    removed.mark += citedNumbers(text).length;
    // Every mark goes: none of them can be trusted to mean our list.
    text = text.slice(0, cut).replace(/\[(\d{1,3}(?:\s*[,，\-–]\s*\d{1,3})*)\]/g, '');
    // GB/T-shaped lines elsewhere in the text go too.
    text = text
      .split('\n')
      .filter((l) => !REFERENCE_LINE.test(l))
      .join('\n');
  }

  text = text.replace(URL, () => {
    removed.url += 1;
    return '';
  });
  text = text.replace(DOI, () => {
    removed.doi += 1;
    return '';
  });

  const sources = options.sources;
  const numbered = new Map(sources.map((s) => [s, s.n]));
  // （张三，2019） and (Smith et al., 2020): resolved to [n] when it names one listed source.
  text = text.replace(PAREN_AUTHOR_YEAR, (whole) => {
    const inner = whole.slice(1, -1);
    const marks: number[] = [];
    for (const part of inner.split(/[;；]/)) {
      const m = new RegExp(`^\\s*(.+?)\\s*(?:等人?|et al\\.?)?\\s*[,，]\\s*(${YEAR})`).exec(part);
      const source = m ? resolveAttribution(m[1]!, m[2]!, sources) : undefined;
      if (source) marks.push(numbered.get(source)!);
      else removed.authorYear += 1;
    }
    return marks.length > 0 ? `[${[...new Set(marks)].join(',')}]` : '';
  });
  // Smith et al. (2020)
  text = text.replace(EN_NARRATIVE, (_whole, name: string, more: string | undefined, year: string) => {
    const source = resolveAttribution(name, year, sources);
    if (source) return `${name}${more ?? ''} [${numbered.get(source)}]`;
    removed.authorYear += 1;
    return options.language === 'en' ? 'Prior work' : '有研究';
  });
  // 张三和李四（2021） / 王明等（2020）
  let out = '';
  let last = 0;
  for (const m of text.matchAll(CN_PAREN_YEAR)) {
    const at = m.index!;
    const etAl = m[1] ?? '';
    // Only after Chinese text or 等: `GDP（2021）` or a plan's `（2021）` after a number is not an attribution.
    if (!etAl && !/[\u4e00-\u9fff]$/.test(text.slice(Math.max(0, at - 1), at))) continue;
    const names = namesBefore(text, at);
    const start = at - names.length;
    if (start < last) continue;
    const source = names ? resolveAttribution(names, m[2]!, sources) : undefined;
    out += text.slice(last, start);
    if (source) out += `${names}${etAl}[${numbered.get(source)}]`;
    else {
      removed.authorYear += 1;
      out += names ? (options.language === 'en' ? 'Prior work' : '有研究') : '';
    }
    last = at + m[0].length;
  }
  text = out + text.slice(last);

  // 《刊名》 not in the list, with its lead-in (发表于) and issue (2020年第3期).
  const listed = listedNames(sources);
  text = text.replace(
    new RegExp(`(${JOURNAL_LEAD})?《([^《》\\n]{2,40})》(${JOURNAL_TAIL})(上|中)?(的)?`, 'g'),
    (
      whole,
      lead: string | undefined,
      name: string,
      tail: string,
      _on: string,
      _of: string,
      offset: number,
      all: string,
    ) => {
      if (listed.has(name.trim())) return whole;
      if (
        !isJournalMention(
          name,
          lead ?? all.slice(Math.max(0, offset - 6), offset),
          tail + all.slice(offset + whole.length, offset + whole.length + 12),
        )
      )
        return whole;
      removed.journal += 1;
      return '';
    },
  );

  // Marks to numbers never given.
  const checked = validateCitations(text, new Set(sources.map((s) => s.n)));
  removed.mark += checked.removed;
  text = tidy(checked.text);
  return { text, removed, regenerate: null };
}

/** What removals leave behind: empty brackets, doubled punctuation, spaces before punctuation. */
function tidy(text: string): string {
  return text
    .replace(/[（(]\s*[)）]/g, '')
    .replace(/[ \t]+([，。；：、,.;:])/g, '$1')
    .replace(/([，、；])\s*([，。；])/g, '$2')
    .replace(/([\u4e00-\u9fff，。；：、])[ \t]+(?=[\u4e00-\u9fff，。；：、])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/^[ \t]+|[ \t]+$/gm, '')
    .trim();
}

// --- the audit -----------------------------------------------------------------------------------------

export interface AuditContext {
  /** Numbers a `[n]` may carry (the printed list's, or the sources' before renumbering). */
  numbers: ReadonlySet<number>;
  /** The sources behind those numbers (their journals and titles may be named in 《》). */
  sources: readonly Source[];
}

/**
 * Everything in `text` that looks like a citation and does not resolve to the list: a `[n]` to no
 * entry, an author-year attribution, a DOI, a URL, a 《periodical》 not listed, a reference section.
 * Empty: the text cites only the list.
 */
export function citationFindings(text: string, ctx: AuditContext): CitationFinding[] {
  const out: CitationFinding[] = [];
  const add = (kind: CitationKind, match: string) => out.push({ kind, match: match.slice(0, 80) });
  for (const m of text.matchAll(/\[(\d{1,3}(?:\s*[,，\-–]\s*\d{1,3})*)\]/g)) {
    const bad = citedNumbers(m[0]).filter((n) => !ctx.numbers.has(n));
    if (bad.length > 0) add('mark', m[0]);
  }
  for (const m of text.matchAll(PAREN_AUTHOR_YEAR)) add('authorYear', m[0]);
  for (const m of text.matchAll(EN_NARRATIVE)) add('authorYear', m[0]);
  for (const m of text.matchAll(CN_PAREN_YEAR)) {
    // （2021） after Chinese text is an attribution; after a number or a 《》 title (a plan's years) it is not.
    const before = text.slice(Math.max(0, m.index! - 1), m.index!);
    if (/[\u4e00-\u9fff]/.test(before) || m[1])
      add('authorYear', text.slice(Math.max(0, m.index! - 6), m.index! + m[0].length));
  }
  for (const m of text.matchAll(DOI)) add('doi', m[0]);
  for (const m of text.matchAll(URL)) add('url', m[0]);
  const listed = listedNames(ctx.sources);
  for (const m of text.matchAll(JOURNAL)) {
    const name = m[1]!;
    if (listed.has(name.trim())) continue;
    const before = text.slice(Math.max(0, m.index! - 6), m.index!);
    const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 12);
    if (isJournalMention(name, before, after)) add('journal', m[0]);
  }
  const heading = REFERENCE_HEADING.exec(text);
  if (heading) add('referenceBlock', heading[0].trim());
  const line = REFERENCE_LINE.exec(text);
  if (line) add('referenceBlock', line[0].trim());
  return out;
}
