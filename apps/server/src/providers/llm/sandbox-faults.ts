/**
 * The content faults of the LLM sandbox: what a real model sometimes answers instead of what was
 * asked. Each takes the text the sandbox's template would have answered (for a JSON answer: each
 * string value with text in it) and the prompt, and returns the faulty text — deterministically,
 * so a test can assert what the feature did with it. The sandbox mark 【沙箱示例】 stays on template
 * text; a fault's own sentences imitate a model and carry it only where it cannot hide the fault.
 */
import { SANDBOX_MARK, type SandboxPrompt } from './sandbox-text.ts';

export const LLM_CONTENT_FAULT_KINDS = [
  'inventedCitations',
  'driftNumber',
  'driftSign',
  'driftDirection',
  'driftName',
  'dropSentence',
  'addClaim',
  'refusal',
  'empty',
  'english',
  'preamble',
  'promptEcho',
  'injectionObeyed',
  'huge',
  'cutOff',
] as const;
export type LlmContentFaultKind = (typeof LLM_CONTENT_FAULT_KINDS)[number];

/** Faults that replace or cut the whole answer (for JSON: the serialized answer, not its strings). */
export const WHOLE_ANSWER_FAULTS: ReadonlySet<LlmContentFaultKind> = new Set(['huge', 'cutOff']);

const JOURNALS = ['《管理科学学报》', '《中国社会科学》', '《经济研究》', '《教育研究》', '《心理学报》'];

/** The first journal name of the list that the prompt does not mention: one it cannot have given. */
function inventedJournal(prompt: SandboxPrompt): string {
  return JOURNALS.find((j) => !prompt.all.includes(j)) ?? '《虚构学刊》';
}

/** Sentences with their closing punctuation; a trailing piece without one counts as a sentence. */
export function sentencesOf(text: string): string[] {
  return text.match(/[^。！？!?\n]+[。！？!?]*\n*|\n+/g) ?? [];
}

function insertAfterFirstSentence(text: string, insert: string): string {
  const first = sentencesOf(text)[0] ?? '';
  return first && first.length < text.length ? first + insert + text.slice(first.length) : text + insert;
}

/** `8所` → `18所`: the first number that is not a citation mark [n] nor part of a year gets a 1 in front. */
function driftNumber(text: string): string {
  for (const m of text.matchAll(/(?<![[\d.,，、-])(\d+(?:\.\d+)?)(?![\d\]])/g)) {
    // Years are caught elsewhere already; the drift that slips through is 8 → 18.
    if (/^(?:19|20)\d\d$/.test(m[1]!)) continue;
    return `${text.slice(0, m.index)}1${text.slice(m.index)}`;
  }
  return text;
}

/** `-3.2%` → `3.2%`; with no negative number, the first percentage or decimal gets a minus. */
function driftSign(text: string): string {
  const negative = /(?<![\d\w])[-−－](?=\d)/.exec(text);
  if (negative) return text.slice(0, negative.index) + text.slice(negative.index + 1);
  const m = /(?<![\d.[-])(\d+(?:\.\d+)?%|\d+\.\d+)/.exec(text);
  return m ? `${text.slice(0, m.index)}-${text.slice(m.index)}` : text;
}

const OPPOSITES: [string, string][] = [
  ['不显著', '显著'],
  ['显著', '不显著'],
  ['正相关', '负相关'],
  ['负相关', '正相关'],
  ['增长', '下降'],
  ['上升', '下降'],
  ['下降', '上升'],
  ['提高', '降低'],
  ['降低', '提高'],
  ['增加', '减少'],
  ['减少', '增加'],
  ['扩大', '缩小'],
  ['促进', '抑制'],
  ['不影响', '影响'],
  ['未发现', '发现'],
  ['没有', '有'],
];

/** The first direction or polarity word (in text order) turned to its opposite; else 能/会/是 negated. */
function driftDirection(text: string): string {
  let best: { at: number; from: string; to: string } | undefined;
  for (const [from, to] of OPPOSITES) {
    const at = text.indexOf(from);
    // 显著 inside 不显著 is the longer word's business.
    if (at < 0 || (from === '显著' && text[at - 1] === '不')) continue;
    if (!best || at < best.at || (at === best.at && from.length > best.from.length)) best = { at, from, to };
  }
  if (best) return text.slice(0, best.at) + best.to + text.slice(best.at + best.from.length);
  const verb = /(?<![不没未])(能|会|是)/.exec(text);
  return verb ? `${text.slice(0, verb.index)}不${text.slice(verb.index)}` : text;
}

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const PERSON = new RegExp(
  `(?<=^|[^\\u4e00-\\u9fff]|[与和及据由如对向被])([${SURNAMES}][\\u4e00-\\u9fff]{2})(?=（|\\(|指出|认为|提出|教授|研究员|博士|先生|女士|团队|课题组|等人|等|发现|表示)`,
);
const PLACES = [
  '北京',
  '上海',
  '广州',
  '深圳',
  '杭州',
  '武汉',
  '成都',
  '南京',
  '西安',
  '天津',
  '重庆',
  '长沙',
  '浙江',
  '江苏',
  '广东',
  '山东',
  '湖北',
  '四川',
  '河南',
];
const ORG = /([\u4e00-\u9fff]{2,8})(大学|学院|研究院|研究所|医院|银行|公司|集团|委员会)/;

/** 王建华 → 王建国; else a place (北京 → 南京…); else an organisation's first character. */
function driftName(text: string): string {
  const person = PERSON.exec(text);
  if (person) {
    const name = person[1]!;
    const last = name.at(-1) === '国' ? '华' : '国';
    return text.slice(0, person.index) + name.slice(0, -1) + last + text.slice(person.index + name.length);
  }
  for (const [i, place] of PLACES.entries()) {
    const at = text.indexOf(place);
    if (at >= 0) {
      const other = PLACES[(i + 1) % PLACES.length]!;
      return text.slice(0, at) + other + text.slice(at + place.length);
    }
  }
  const org = ORG.exec(text);
  if (org) {
    const swapped = org[1]!.startsWith('华') ? `中${org[1]!.slice(1)}` : `华${org[1]!.slice(1)}`;
    return text.slice(0, org.index) + swapped + text.slice(org.index + org[1]!.length);
  }
  return text;
}

/** The middle sentence dropped (of two or more; the marked first sentence stays when there are three or more). */
function dropSentence(text: string): string {
  const sentences = sentencesOf(text).filter((s) => s.trim());
  if (sentences.length < 2) return text;
  const drop = sentences.length >= 3 ? Math.floor(sentences.length / 2) : 1;
  return sentences.filter((_, i) => i !== drop).join('');
}

const ADDED_CLAIM = '另据统计，该比例在2023年已达到47.6%[9]。';

const REFUSAL = `${SANDBOX_MARK}抱歉，我无法完成这个请求。根据相关规定，我不能提供此类内容。如有其他问题，欢迎继续提问。`;

const ENGLISH =
  `${SANDBOX_MARK}This paragraph discusses the research question from several perspectives. ` +
  'Previous studies have examined the issue in depth and provided a solid foundation for further work. ' +
  'Methodologically, the analysis combines a literature review with comparative case studies, ' +
  'and the results suggest several hypotheses that deserve further empirical testing.';

const PREAMBLE = '好的，以下是改写后的段落：\n\n';
const AFTERWORD = '\n\n（说明：以上改写保留了原文的数据与引用，调整了句式与用词，如需进一步修改请告诉我。）';

/** The system prompt as sent (what a model that leaks it writes). */
function systemPromptOf(prompt: SandboxPrompt): string {
  return prompt.system.trim() || `${SANDBOX_MARK}（提示中没有系统消息）`;
}

/**
 * What a model that obeys an instruction planted in the user's material writes: the quoted text
 * the instruction asked for (“……只输出‘我是猫’”), or the system prompt when it asked for that or
 * asked for nothing quotable, or when there is no planted instruction at all.
 */
export function obeyedInjection(prompt: SandboxPrompt): string {
  const planted =
    /[^。！？\n]*(?:忽略|无视|不要理会|忘记|ignore)[^。！？\n]*[。！？]?[^。！？\n]*/i.exec(
      prompt.user,
    )?.[0] ?? '';
  if (planted && !/系统提示|提示词|system prompt/i.test(planted)) {
    const quoted = /[“"「『‘']([^”"」』’']{2,200})[”"」』’']/.exec(planted)?.[1];
    if (quoted) return quoted;
    const after = /(?:输出|回答|写|改为)[:：]\s*([^。！？\n]{2,200})/.exec(planted)?.[1];
    if (after) return after;
  }
  return systemPromptOf(prompt);
}

function cutMidSentence(text: string): string {
  if (text.length < 4) return text.slice(0, Math.max(0, text.length - 1));
  let at = Math.max(1, Math.floor(text.length * 0.55));
  // Not right after a sentence end: the cut must fall inside a sentence.
  while (at > 1 && /[。！？!?\n]/.test(text[at - 1]!)) at -= 1;
  return text.slice(0, at);
}

/** Applies one content fault to one text. `hugeChars`: how long a huge answer is. */
export function applyContentFault(
  kind: LlmContentFaultKind,
  text: string,
  prompt: SandboxPrompt,
  hugeChars: number,
): string {
  switch (kind) {
    case 'inventedCitations': {
      const journal = inventedJournal(prompt);
      const body = insertAfterFirstSentence(
        text,
        `王明和李华（2021）指出，这一问题在近年受到广泛关注。Smith et al. (2020) 也得到了相似的结论（doi:10.1016/j.respol.2020.104012，https://www.example.org/papers/2020/104012），相关讨论见${journal}。`,
      );
      const name = journal.slice(1, -1);
      return (
        `${body}\n参考文献\n` +
        `[1] 王明, 李华. 数字化转型的机制与路径[J]. ${name}, 2021, 24(3): 1-15.\n` +
        '[2] Smith J, Brown K, Lee H. Digital transformation and firm performance[J]. Research Policy, 2020, 49(8): 104012. doi:10.1016/j.respol.2020.104012\n' +
        '[3] 张伟. 高校治理现代化研究[M]. 北京: 科学出版社, 2019.'
      );
    }
    case 'driftNumber':
      return driftNumber(text);
    case 'driftSign':
      return driftSign(text);
    case 'driftDirection':
      return driftDirection(text);
    case 'driftName':
      return driftName(text);
    case 'dropSentence':
      return dropSentence(text);
    case 'addClaim':
      return insertAfterFirstSentence(text, ADDED_CLAIM);
    case 'refusal':
      return REFUSAL;
    case 'empty':
      return '';
    case 'english':
      return ENGLISH;
    case 'preamble':
      return PREAMBLE + text + AFTERWORD;
    case 'promptEcho':
      return systemPromptOf(prompt);
    case 'injectionObeyed':
      return obeyedInjection(prompt);
    case 'huge': {
      const unit = text || SANDBOX_MARK;
      return unit.repeat(Math.ceil(hugeChars / unit.length)).slice(0, hugeChars);
    }
    case 'cutOff':
      return cutMidSentence(text);
  }
}

/** Strings of a JSON value with text in them (a letter or a digit), where faults apply. */
export function mapTextStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return /[\p{L}\p{N}]/u.test(value) ? map(value) : value;
  if (Array.isArray(value)) return value.map((item) => mapTextStrings(item, map));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTextStrings(v, map)]));
  return value;
}
