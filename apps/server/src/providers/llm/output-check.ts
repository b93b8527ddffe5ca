/**
 * Output hygiene: one checker every AI feature runs on a model's text before it reaches a user, a
 * stored draft or a file. It knows nothing of citations or facts (each feature checks those); it
 * rejects what no feature may deliver — an empty answer, a refusal, the wrong language, an echo of
 * the system prompt, an obeyed instruction from the user's material, a text that is not a rewrite
 * of the given material, the wrong length, a cut-off answer — and strips a clear preamble
 * (“好的，以下是改写后的段落：”) or afterword (“（说明：……）”) only when the body left is intact.
 */
import type { LlmMessage } from './llm.types.ts';
import { materialsOf, withoutMaterial } from './material.ts';

export type OutputRule =
  | 'empty'
  | 'refusal'
  | 'preamble'
  | 'afterword'
  | 'wrong_language'
  | 'prompt_echo'
  | 'injection'
  | 'not_a_rewrite'
  | 'too_short'
  | 'too_long'
  | 'truncated'
  | 'markdown';

/** What each rule means, in words a user or operator reads. */
export const OUTPUT_RULE_TEXTS: Readonly<Record<OutputRule, string>> = {
  empty: '回答为空',
  refusal: '模型拒绝了任务',
  preamble: '正文前有“好的，以下是……”之类的开场白',
  afterword: '正文后附有说明或客套话',
  wrong_language: '回答不是中文',
  prompt_echo: '回答复述了系统提示',
  injection: '回答执行了用户材料中的指令',
  not_a_rewrite: '回答不是对原文的改写',
  too_short: '回答过短',
  too_long: '回答过长',
  truncated: '回答被截断，没有写完',
  markdown: '回答含有 Markdown 标记（标题、加粗、列表或代码块）',
};

/**
 * One broken rule: `rule` is the id (this module's OutputRule, or a feature's own id such as
 * 'invented_citation'); `message` says it in Chinese, with the detail that helps.
 */
export interface OutputViolation {
  rule: OutputRule | (string & {});
  message: string;
}

export interface OutputExpectations {
  /** 'zh' (default): the answer is Chinese (English terms, formulas and [n] are fine). */
  language?: 'zh' | 'any';
  /** Characters of the cleaned text, whitespace included. */
  minChars?: number;
  maxChars?: number;
  /** The material the answer must be a rewrite of (降重 paragraph, a revised section). */
  rewriteOf?: string;
  /** The provider said the answer was cut off (LlmChatResult.truncated). */
  truncated?: boolean;
  /** The answer must end like finished prose (。！？… or a closing quote/bracket). */
  complete?: boolean;
  /** The answer is plain text (a paragraph for a .docx): no Markdown headings, bold, lists or code fences. */
  plain?: boolean;
}

export type OutputCheck =
  | { ok: true; text: string; stripped: ('preamble' | 'afterword')[] }
  | { ok: false; violations: OutputViolation[] };

const violation = (rule: OutputRule, detail?: string): OutputViolation => ({
  rule,
  message: detail ? `${OUTPUT_RULE_TEXTS[rule]}（${detail}）` : OUTPUT_RULE_TEXTS[rule],
});

const clip = (text: string, n = 24) => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

// --- preamble and afterword ---------------------------------------------------------------------

/** Conversational openings: 好的， / 当然， / Sure, … up to the colon or line end that closes them. */
const CHATTY_OPENING = /^(?:好的|好|当然|没问题|可以的?|嗯|OK|Okay|Sure|Certainly|Of course)[!！,，。.、\s]/i;
/** “以下是改写后的段落：”, “根据您的要求，修改如下：”, “Here is the rewritten paragraph:”. */
const ANNOUNCING =
  /^(?:以下是|以下为|下面是|如下是|这是|这里是|为您|已为您|我已|我将|根据您?的?要求|按照您?的?要求|按要求|Here is|Here's|Below is)[^\n]{0,60}?[：:]/i;
/** What makes an announcing line a preamble: it speaks of the answer as a product (改写后的…, 为您…). */
const ANNOUNCED_ANSWER = /改写|修改|润色|降重|重写|优化|您|按要求|rewrit|revis|here/i;
/** …or names a kind of text and ends its line (“以下是研究背景部分的内容：⏎”). */
const ANNOUNCED_TEXT = /以下|如下|下面|段落|正文|内容|结果|版本|文本|摘要|标题|大纲|章节|部分/;
/** A label line: “**改写后的段落：**”. */
const LABEL_LINE =
  /^[#*\s]*(?:改写|修改|润色|降重|重写|优化)(?:后|之后)?(?:的)?(?:段落|文本|内容|版本|正文|结果)?[*\s]*[：:][*\s]*/;

/** The preamble at the start of `text` and the rest, or null. */
function splitPreamble(text: string): { preamble: string; body: string } | null {
  const label = LABEL_LINE.exec(text);
  if (label) return { preamble: label[0], body: text.slice(label[0].length) };
  const announcing = ANNOUNCING.exec(text);
  if (
    announcing &&
    (ANNOUNCED_ANSWER.test(announcing[0]) ||
      (ANNOUNCED_TEXT.test(announcing[0]) && /^[ \t]*\n/.test(text.slice(announcing[0].length))))
  )
    return { preamble: announcing[0], body: text.slice(announcing[0].length) };
  if (CHATTY_OPENING.test(text)) {
    // Up to the first colon or line break within 80 characters, else the first sentence.
    const head = text.slice(0, 80);
    const colon = head.search(/[：:]|\n/);
    const end = colon >= 0 ? colon + 1 : head.search(/[。！!]/) + 1;
    if (end > 0) return { preamble: text.slice(0, end), body: text.slice(end) };
  }
  return null;
}

const NOTE_START = /^[（(]?\s*(?:说明|注|备注|注意|修改说明|改写说明|改动说明|修改要点|Note)\s*[：:]/i;
const ABOUT_THE_REWRITE =
  /^(?:以上|上述|这段|本段)(?:是|为|便是|就是)?(?:的)?(?:改写|修改|润色|降重|重写|优化)/;
const ADDRESSING_READER =
  /^(?:希望|如|若|请|欢迎|如果|Hope|If you|Let me)[^\n]*(?:您|你|告诉我|let me know)/i;

function isAfterword(part: string): boolean {
  const t = part.trim();
  return NOTE_START.test(t) || ABOUT_THE_REWRITE.test(t) || ADDRESSING_READER.test(t);
}

/** The afterword at the end of `text` (a last line, a last sentence or a （说明：…）) and the rest, or null. */
function splitAfterword(text: string): { afterword: string; body: string } | null {
  const paren =
    /[（(]\s*(?:说明|注|备注|注意|修改说明|改写说明|改动说明|Note)\s*[：:][^（）()]*[）)]?\s*$/i.exec(text);
  if (paren && paren.index > 0) return { afterword: paren[0], body: text.slice(0, paren.index) };
  const lastBreak = text.trimEnd().lastIndexOf('\n');
  if (lastBreak > 0 && isAfterword(text.slice(lastBreak + 1)))
    return { afterword: text.slice(lastBreak + 1), body: text.slice(0, lastBreak) };
  // The last sentence of a single line: “……。希望对您有帮助！”
  const sentences = text.trimEnd().match(/[^。！？!?]+[。！？!?]*/g) ?? [];
  if (sentences.length > 1) {
    const last = sentences.at(-1)!;
    if (isAfterword(last)) return { afterword: last, body: text.trimEnd().slice(0, -last.length) };
  }
  return null;
}

// --- refusal, language, echo, injection -------------------------------------------------------

const REFUSALS: RegExp[] = [
  /(?:抱歉|对不起)[^。！？\n]{0,40}?(?:无法|不能|不便|不可以|没办法)/,
  /我(?:无法|不能|不便|没办法|不可以)(?:为您|帮您|帮助|协助|完成|提供|回答|满足|处理|生成|撰写|改写|执行|继续|按照|进行|参与)/,
  /作为(?:一个|一名)?[^，,。\n]{0,8}?(?:AI|人工智能|语言模型|助手)[，,]\s*我/i,
  /\b(?:I'm sorry|I am sorry|I apologi[sz]e|I cannot|I can't|I am unable|I'm unable|As an AI)\b/i,
];

function refusalIn(text: string): string | null {
  for (const pattern of REFUSALS) {
    const m = pattern.exec(text);
    if (m) return m[0];
  }
  return null;
}

/** English function words: what tells English prose from chemical names, code or formulas. */
const ENGLISH_GLUE =
  /\b(?:the|of|and|is|are|was|were|to|in|that|with|for|this|we|it|on|as|by|be|from|has|have)\b/gi;

function languageProblem(text: string): string | null {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const words = text.match(/[A-Za-z]{2,}/g)?.length ?? 0;
  const glue = text.match(ENGLISH_GLUE)?.length ?? 0;
  const kana = text.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const hangul = text.match(/\p{Script=Hangul}/gu)?.length ?? 0;
  if (kana > 5 + han / 10) return '含有日文';
  if (hangul > 5 + han / 10) return '含有韩文';
  // An English word stands for about two Chinese characters of content; terms, formulas and
  // chemical names are not prose (prose has function words).
  if ((words > 0 && han < words * 2 && glue >= 3) || (han < 5 && words >= 5))
    return `中文 ${han} 字，英文 ${words} 词`;
  for (const paragraph of text.split(/\n+/)) {
    const pw = paragraph.match(/[A-Za-z]{2,}/g)?.length ?? 0;
    const ph = paragraph.match(/\p{Script=Han}/gu)?.length ?? 0;
    const pg = paragraph.match(ENGLISH_GLUE)?.length ?? 0;
    if (pw >= 20 && ph < pw && pg >= 3) return `有一段英文：${clip(paragraph)}`;
  }
  return null;
}

const GRAM = 8;
function gramsOf(text: string): Set<string> {
  const t = text.replace(/\s+/g, '');
  const out = new Set<string>();
  for (let i = 0; i + GRAM <= t.length; i += 1) out.add(t.slice(i, i + GRAM));
  return out;
}

/**
 * How much of the system prompt's own text (system messages minus fenced material, minus anything
 * also in the user messages) the answer repeats, in distinct 8-character runs.
 */
function echoOf(text: string, messages: LlmMessage[]): { shared: number; own: number } {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => withoutMaterial(m.content))
    .join('\n');
  const own = gramsOf(system);
  for (const gram of gramsOf(
    messages
      .filter((m) => m.role !== 'system')
      .map((m) => m.content)
      .join('\n'),
  ))
    own.delete(gram);
  let shared = 0;
  for (const gram of gramsOf(text)) if (own.has(gram)) shared += 1;
  return { shared, own: own.size };
}

const DIRECTIVE =
  /(?:忽略|无视|不要理会|忘记|忘掉)[^。！？\n]{0,12}(?:指令|指示|要求|提示|规则|设定|以上|之前|上述|前面)|ignore (?:all |any |the )?(?:previous|above|prior|earlier) (?:instructions?|prompts?)|(?:输出|打印|显示|告诉我|复述|泄露|重复)[^。！？\n]{0,8}(?:系统提示|提示词|system prompt|指令原文)|你现在是|从现在起你|扮演/i;
const META_TALK: RegExp[] = [
  // First person: a paper may well discuss 提示词 or system prompts; a model talks about its own.
  /我(?:的|收到的|接到的|被给予的)(?:系统提示词?|提示词|指令|指示|设定)|\bmy (?:system )?(?:prompt|instructions)\b/i,
  /(?:忽略|无视)了?(?:之前|以上|上述|前面|所有|原来)[^。！？\n]{0,6}(?:指令|指示|要求)/,
  /(?:已|我)(?:按照?|根据|遵照)(?:材料|原文|用户)(?:中|里)?的?(?:指令|指示|要求)/,
];

/** Quoted payloads of the directives in a material text (“只输出‘我是猫’” → 我是猫). */
function directivePayloads(material: string): string[] {
  const out: string[] = [];
  for (const sentence of material.split(/(?<=[。！？!?\n])/)) {
    if (!DIRECTIVE.test(sentence)) continue;
    for (const m of sentence.matchAll(/[“"「『‘']([^”"」』’']{2,200})[”"」』’']/g)) out.push(m[1]!.trim());
    const after = /(?:输出|回答|写|改为)[:：]\s*([^。！？\n]{2,200})/.exec(sentence);
    if (after) out.push(after[1]!.trim());
  }
  return out.filter((p) => p.length >= 2);
}

function injectionIn(text: string, messages: LlmMessage[], rewriteOf?: string): string | null {
  const materialText = [
    ...messages.flatMap((m) => materialsOf(m.content).map((p) => p.text)),
    ...(rewriteOf ? [rewriteOf] : []),
  ].join('\n');
  const compact = text.replace(/\s+/g, '');
  for (const payload of directivePayloads(materialText)) {
    const p = payload.replace(/\s+/g, '');
    // Obeyed: the answer is mostly what the planted directive asked for.
    if (p.length > 0 && compact.includes(p) && compact.length <= p.length * 3 + 20)
      return `照材料中的指令输出了“${clip(payload, 16)}”`;
  }
  for (const pattern of META_TALK) {
    const m = pattern.exec(text);
    // A rewrite may keep such words when the material itself has them.
    if (m && !pattern.test(materialText)) return `谈到了“${m[0]}”`;
  }
  return null;
}

/** Share of the source's Chinese characters (as a multiset) that the answer keeps. */
function keptShare(source: string, answer: string): number | null {
  const count = (t: string) => {
    const map = new Map<string, number>();
    for (const c of t.match(/\p{Script=Han}/gu) ?? []) map.set(c, (map.get(c) ?? 0) + 1);
    return map;
  };
  const a = count(source);
  const total = [...a.values()].reduce((x, y) => x + y, 0);
  if (total < 10) return null;
  const b = count(answer);
  let kept = 0;
  for (const [c, n] of a) kept += Math.min(n, b.get(c) ?? 0);
  return kept / total;
}

// --- the checker ------------------------------------------------------------------------------

function bodyViolations(body: string, messages: LlmMessage[], expect: OutputExpectations): OutputViolation[] {
  const out: OutputViolation[] = [];
  const language = expect.language ?? 'zh';
  if (language === 'zh') {
    const problem = languageProblem(body);
    if (problem) out.push(violation('wrong_language', problem));
  }
  const echo = echoOf(body, messages);
  if (echo.shared >= 40 || (echo.own >= 20 && echo.shared >= Math.max(20, echo.own * 0.3)))
    out.push(violation('prompt_echo', `与系统提示重合 ${echo.shared} 处`));
  const injection = injectionIn(body, messages, expect.rewriteOf);
  if (injection) out.push(violation('injection', injection));
  if (expect.rewriteOf !== undefined) {
    const share = keptShare(expect.rewriteOf, body);
    const han = (t: string) => t.match(/\p{Script=Han}/gu)?.length ?? 0;
    const ratio = han(body) / Math.max(1, han(expect.rewriteOf));
    if (share !== null && (share < 0.4 || ratio < 0.5 || ratio > 2))
      out.push(
        violation(
          'not_a_rewrite',
          `保留原文用字 ${Math.round(share * 100)}%，长度为原文的 ${ratio.toFixed(1)} 倍`,
        ),
      );
  }
  if (expect.minChars !== undefined && body.length < expect.minChars)
    out.push(violation('too_short', `${body.length} 字，至少 ${expect.minChars} 字`));
  if (expect.maxChars !== undefined && body.length > expect.maxChars)
    out.push(violation('too_long', `${body.length} 字，至多 ${expect.maxChars} 字`));
  if (expect.plain) {
    const mark = /^#{1,6}\s|\*\*[^*\n]+\*\*|^```|^\s*[-*+]\s+\S/m.exec(body);
    if (mark) out.push(violation('markdown', `“${clip(mark[0], 12)}”`));
  }
  if (expect.complete && !expect.truncated && !/[。．！？!?…；;.」』”"’）)】\]]$/.test(body.trimEnd()))
    out.push(violation('truncated', `结尾是“${body.trimEnd().slice(-8)}”`));
  return out;
}

/**
 * Checks one model answer. `messages` are the prompt it answered (the system prompt's own text is
 * what an echo is measured against — 40 distinct 8-character runs, or 30 % of it; fenced material is where planted directives are looked for).
 * Returns the cleaned text (trimmed; a clear preamble/afterword stripped when the body left passes
 * every rule) or every rule it broke.
 */
export function checkOutput(
  text: string,
  messages: LlmMessage[],
  expect: OutputExpectations = {},
): OutputCheck {
  const whole = text.replace(/\r\n?/g, '\n').trim();
  if (!/[\p{L}\p{N}]/u.test(whole)) return { ok: false, violations: [violation('empty')] };
  const violations: OutputViolation[] = [];
  if (expect.truncated) violations.push(violation('truncated', '模型输出达到长度上限'));
  const refusal = refusalIn(whole);
  if (refusal) violations.push(violation('refusal', clip(refusal)));

  let body = whole;
  const stripped: ('preamble' | 'afterword')[] = [];
  const removed: OutputViolation[] = [];
  const preamble = splitPreamble(body);
  if (preamble) {
    body = preamble.body.trim();
    stripped.push('preamble');
    removed.push(violation('preamble', clip(preamble.preamble)));
  }
  for (let i = 0; i < 2 && body; i += 1) {
    const afterword = splitAfterword(body);
    if (!afterword) break;
    body = afterword.body.trim();
    if (!stripped.includes('afterword')) stripped.push('afterword');
    removed.push(violation('afterword', clip(afterword.afterword)));
  }
  if (!/[\p{L}\p{N}]/u.test(body)) return { ok: false, violations: [...removed, violation('empty')] };
  violations.push(...bodyViolations(body, messages, expect));
  // A preamble or afterword is only cut off a body that is intact; otherwise it is part of the failure.
  if (violations.length > 0) return { ok: false, violations: [...removed, ...violations] };
  return { ok: true, text: body, stripped };
}

/** Violations as one Chinese line, e.g. for a result's 未通过原因 or a log. */
export function violationsText(violations: OutputViolation[]): string {
  return violations.map((v) => v.message).join('；');
}

export type StringsCheck<T> = { ok: true; value: T } | { ok: false; violations: OutputViolation[] };

/**
 * `checkOutput` on every string with text in it of a structured answer (titles, outline headings,
 * an abstract…). `expect` is one set of expectations for all, or a function of the string's path
 * (`titles[0]`, `chapters[1].heading`) returning its own or null to leave that string alone (an
 * English abstract, an id). Violations name the path: `titles[1]：模型拒绝了任务（…）`. The value
 * comes back with each string cleaned (preamble/afterword stripped, trimmed).
 */
export function checkStrings<T>(
  value: T,
  messages: LlmMessage[],
  expect: OutputExpectations | ((path: string) => OutputExpectations | null) = {},
): StringsCheck<T> {
  const violations: OutputViolation[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') {
      const wanted = typeof expect === 'function' ? expect(path) : expect;
      if (!wanted || !/[\p{L}\p{N}]/u.test(node)) return node;
      const checked = checkOutput(node, messages, wanted);
      if (checked.ok) return checked.text;
      for (const v of checked.violations)
        violations.push({ rule: v.rule, message: `${path || '(根)'}：${v.message}` });
      return node;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node && typeof node === 'object')
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]),
      );
    return node;
  };
  const cleaned = walk(value, '') as T;
  return violations.length > 0 ? { ok: false, violations } : { ok: true, value: cleaned };
}
