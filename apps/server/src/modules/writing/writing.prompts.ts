import type { LlmMessage } from '../../providers/llm/index.ts';
import type { Source } from './references.ts';
import type { OutlineItem } from './writing.schemas.ts';
import { AREA_NAMES } from './writing.texts.ts';

/**
 * The prompts of the writer. They keep to the conventions the LLM sandbox reads (README of
 * providers/llm): `题目：`/`主题：` lines, `约N字`, sources as `[n] title` lines.
 */

const SYSTEM =
  '你是严谨的中文学术写作助手。不编造数据、文献、人名和机构；只能引用用户列出的编号文献，用 [n] 标注；' +
  '没有合适文献时不引用。使用规范的书面语。';

/** What the section prompt says when the item asks for a picture (the sandbox looks for it). */
export const FIGURE_ASK = '配一幅图';

export interface WritingFacts {
  area: keyof typeof AREA_NAMES;
  topic: string;
  title: string | null;
  discipline: string;
  degree: string;
  language: 'zh' | 'en';
  targetWords: number;
  requirements: string;
}

function context(w: WritingFacts): string {
  return [
    `写作类型：${AREA_NAMES[w.area]}`,
    w.discipline ? `学科：${w.discipline}` : '',
    w.degree ? `学历层次：${w.degree}` : '',
    `语言：${w.language === 'en' ? '英文' : '中文'}`,
    w.requirements ? `写作要求：${w.requirements}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function titleMessages(input: {
  area: WritingFacts['area'];
  topic: string;
  discipline: string;
}): LlmMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `主题：${input.topic}\n写作类型：${AREA_NAMES[input.area]}${input.discipline ? `\n学科：${input.discipline}` : ''}\n请给出 5 个论文题目建议，每个附一句推荐理由。题目要具体、可研究、不超过 30 字。`,
    },
  ];
}

export function outlineMessages(w: WritingFacts): LlmMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `题目：${w.title}\n${context(w)}\n全文目标字数：${w.targetWords}\n请给出三级以内的论文大纲（章、节、小节），为每个条目分配字数（wordCount），各章字数之和约等于目标字数。不要包含摘要和参考文献。`,
    },
  ];
}

export function abstractMessages(w: WritingFacts, outline: readonly OutlineItem[]): LlmMessage[] {
  const chapters = outline.map((c, i) => `第${i + 1}章 ${c.name}`).join('\n');
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `题目：${w.title}\n${context(w)}\n大纲：\n${chapters}\n请写中文摘要（约300字）和对应的英文摘要，各给 3-6 个关键词。`,
    },
  ];
}

export function sectionMessages(
  w: WritingFacts,
  section: { heading: string; path: string; wordCount: number; item: OutlineItem },
  sources: readonly Source[],
): LlmMessage[] {
  const asks: string[] = [];
  if (section.item.form === '1')
    asks.push('包含一个表格，用 Markdown 表格写出（第一行为表头），数据须来自正文说明的材料，不要编造');
  if (section.item.formula === '1') asks.push('包含一个公式，用 $$ LaTeX $$ 单独成行');
  if (section.item.code === '1') asks.push('包含一段代码，用 ``` 代码块');
  if (section.item.picture === '1')
    asks.push(
      `${FIGURE_ASK}：若有来源可靠的数值数据，在正文中写明各项的数值和单位（供作图），没有数据时不要编造`,
    );
  const list =
    sources.length > 0
      ? `可引用的来源（只能引用这些，用 [n] 标注在句末）：\n${sources.map((s) => `[${s.n}] ${s.title}`).join('\n')}`
      : '没有可引用的来源：不要出现任何 [n] 引用标注。';
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `题目：${w.title}\n${context(w)}\n现在撰写：${section.path} ${section.heading}\n请写约${section.wordCount}字，只输出正文段落，不要重复标题。${asks.length > 0 ? `\n要求：${asks.join('；')}。` : ''}\n${list}`,
    },
  ];
}

/** Rewriting one written section: the same facts and sources, the old text and what to change. */
export function revisionMessages(
  w: WritingFacts,
  section: { heading: string; path: string; wordCount: number; item: OutlineItem },
  sources: readonly Source[],
  previous: string,
  instruction: string,
): LlmMessage[] {
  const [system, user] = sectionMessages(w, section, sources);
  const asked = instruction ? `修改要求：${instruction}` : '修改要求：改进表达与论证，保持原意';
  return [
    system!,
    {
      role: 'user',
      content: `${user!.content}\n\n这一节的原文如下，请按要求重写整节（仍然只能引用上面列出的来源）：\n${asked}\n原文：\n${previous}`,
    },
  ];
}

/** Asks for the chart of a written section: only numbers the text states, or chart null. */
export function figureMessages(
  w: WritingFacts,
  section: { heading: string; path: string },
  text: string,
): LlmMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `题目：${w.title}\n现在为 ${section.path} ${section.heading} 配图。下面是这一节的正文。请根据正文中明确写出的数值数据给出一幅图表（chart）：类型（bar 柱状图、line 折线图、pie 饼图）、图题、类别标签、数据系列（每个数值必须原样出自正文，不得换算或编造）和单位。正文没有可以作图的数值数据时，chart 为 null。\n正文：\n${text}`,
    },
  ];
}
