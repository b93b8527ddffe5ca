import { registerSandboxTemplate, SANDBOX_MARK } from '../../providers/llm/index.ts';
import { factsOf } from './reduction.facts.ts';
import { kindOfPrompt, paragraphOfPrompt, REWRITE_TASK } from './reduction.prompts.ts';

/**
 * The LLM sandbox's "rewrite": not a language model, a fixed table of plain substitutions applied
 * outside the paragraph's facts, marked 【沙箱示例】 at the start. It lets the whole flow run and be
 * tested without an endpoint; the result pages and the .docx show the mark, so it is never taken
 * for a real rewrite. Registered at import time.
 */
const SWAPS: readonly (readonly [string, string])[] = [
  ['研究表明', '已有探讨显示'],
  ['随着', '伴随'],
  ['因此', '由此'],
  ['进行', '开展'],
  ['通过', '借助'],
  ['重要', '关键'],
  ['提高', '提升'],
  ['分析', '剖析'],
  ['方法', '手段'],
  ['问题', '难题'],
  ['发展', '演进'],
  ['主要', '首要'],
  ['影响', '作用'],
  ['认为', '指出'],
  ['显著', '明显'],
  ['能够', '可以'],
  ['具有', '拥有'],
  ['目前', '当下'],
  ['以及', '和'],
  ['不断', '持续'],
  ['促进', '推动'],
  ['采用', '运用'],
  ['结果', '结论'],
  ['存在', '出现'],
  ['有效', '切实'],
  ['需要', '有必要'],
];
const AIGC_CONNECTIVES = /(?:首先|其次|此外|另外|综上所述|总而言之|值得注意的是|与此同时|总的来说)[，,]?/gu;

/**
 * Facts are set aside as placeholders, the rest gets the table's substitutions, and in each
 * sentence of two or more clauses the first clause moves to the end — enough to change the
 * character sequences the engine matches, while every fact comes back character for character.
 */
export function sandboxRewrite(paragraph: string, aigc: boolean): string {
  const facts = factsOf(paragraph);
  let masked = '';
  let at = 0;
  facts.forEach((f, i) => {
    masked += `${paragraph.slice(at, f.start)}\uE000${i}\uE000`;
    at = f.end;
  });
  masked += paragraph.slice(at);
  for (const [from, to] of SWAPS) masked = masked.split(from).join(to);
  if (aigc) masked = masked.replace(AIGC_CONNECTIVES, '');
  const sentences = masked.match(/[^。！？]+[。！？]?/gu) ?? [masked];
  const rotated = sentences.map((sentence) => {
    const end = /[。！？]$/u.test(sentence) ? sentence.slice(-1) : '';
    const clauses = (end ? sentence.slice(0, -1) : sentence).split('，');
    if (clauses.length < 2) return sentence;
    return `${[...clauses.slice(1), clauses[0]].join('，')}${end}`;
  });
  const out = rotated.join('').replace(/\uE000(\d+)\uE000/gu, (_m, i: string) => facts[Number(i)]!.text);
  return `${SANDBOX_MARK}${out}`;
}

registerSandboxTemplate(REWRITE_TASK, (prompt) => {
  const paragraph = paragraphOfPrompt(prompt.user);
  if (paragraph === undefined) return undefined;
  return sandboxRewrite(paragraph, kindOfPrompt(prompt.system) === 'aigc_reduction');
});
