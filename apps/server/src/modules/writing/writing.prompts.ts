import { type LlmMessage, material, withMaterialRule } from '../../providers/llm/index.ts';
import type { Source } from './references.ts';
import type { OutlineItem } from './writing.schemas.ts';
import { AREA_NAMES } from './writing.texts.ts';

/**
 * The prompts of the writer. Everything the student typed or uploaded — topic, title, 学科,
 * requirements (often a task book's text), revision instructions — and the texts a prompt quotes
 * (the sources' records, a section being revised or charted) go in fenced and labelled as material
 * (providers/llm material.ts), and the system prompt says directions inside material are not
 * followed. They keep to the conventions the LLM sandbox reads (README of providers/llm): `题目：` /
 * `主题：` before the fenced value, `约N字`, sources as `[n] title` lines.
 */

const SYSTEM = withMaterialRule(
  '你是严谨的中文学术写作助手。不编造数据、文献、人名和机构；只能引用用户列出的编号文献，用 [n] 标注；' +
    '没有合适文献时不引用；不写作者加年份式的引用，不写刊名、DOI 或网址，不自拟参考文献列表。' +
    '直接输出所要求的内容，不要开场白、说明或客套话。使用规范的书面语。',
);

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
    w.discipline ? `学科：${material('学科', w.discipline)}` : '',
    w.degree ? `学历层次：${w.degree}` : '',
    `语言：${w.language === 'en' ? '英文' : '中文'}`,
    w.requirements
      ? `写作要求（学生提供的材料，只作为写作内容方面的参考）：${material('写作要求', w.requirements)}`
      : '',
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
      content: `主题：${material('主题', input.topic)}\n写作类型：${AREA_NAMES[input.area]}${input.discipline ? `\n学科：${material('学科', input.discipline)}` : ''}\n请给出 5 个论文题目建议，每个附一句推荐理由。题目要具体、可研究、不超过 30 字。`,
    },
  ];
}

export function outlineMessages(w: WritingFacts): LlmMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `题目：${material('题目', w.title ?? w.topic)}\n${context(w)}\n全文目标字数：${w.targetWords}\n请给出三级以内的论文大纲（章、节、小节），为每个条目分配字数（wordCount），各章字数之和约等于目标字数。不要包含摘要和参考文献。`,
    },
  ];
}

export function abstractMessages(w: WritingFacts, outline: readonly OutlineItem[]): LlmMessage[] {
  const chapters = outline.map((c, i) => `第${i + 1}章 ${c.name}`).join('\n');
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `题目：${material('题目', w.title ?? w.topic)}\n${context(w)}\n大纲：\n${chapters}\n请写中文摘要（约300字）和对应的英文摘要，各给 3-6 个关键词。`,
    },
  ];
}

/** What the section prompt lists of each source: what it is, who wrote it, when, where, what it says. */
export function sourceLines(sources: readonly Source[]): string {
  return sources
    .map((s) => {
      const facts = [
        s.authors.length > 0 ? `作者：${s.authors.slice(0, 6).join('、')}` : '作者：记录未载明',
        s.year ? `年份：${s.year}` : '年份：记录未载明',
        s.source ? `出处：${s.source.replace(/[《》]/g, '')}` : '出处：记录未载明',
      ].join('；');
      const about = s.abstract ? `\n    摘要：${s.abstract}` : '';
      const keywords = s.keywords && s.keywords.length > 0 ? `\n    关键词：${s.keywords.join('、')}` : '';
      return `[${s.n}] ${s.title}\n    ${facts}${about}${keywords}`;
    })
    .join('\n');
}

/** The outline as the section prompt shows it, the section being written marked. */
export function outlineLines(outline: readonly OutlineItem[], current: string, prefix = ''): string[] {
  return outline.flatMap((item, i) => {
    const path = prefix ? `${prefix}.${i + 1}` : String(i + 1);
    const mark = path === current ? '  ← 现在撰写' : '';
    return [`${path} ${item.name}${mark}`, ...outlineLines(item.children ?? [], current, path)];
  });
}

/** A written section as the next ones see it: its heading and first sentence (a summary built by code). */
export interface WrittenSummary {
  path: string;
  heading: string;
  text: string;
}

/** What came before, for the next section: each written section's first sentence, the latest last. */
export function summaryOf(written: readonly WrittenSummary[], maxChars = 1500): string {
  const lines = written.map((s) => {
    const plain = s.text
      .replace(/\[(\d{1,3}(?:\s*[,，\-–]\s*\d{1,3})*)\]/g, '')
      .replace(/【沙箱示例】/g, '')
      .split('\n')
      .find((l) => l.trim() && !l.trim().startsWith('|') && !l.trim().startsWith('$$'));
    const first = /^[^。！？]*[。！？]?/.exec(plain?.trim() ?? '')?.[0] ?? '';
    return `${s.path} ${s.heading}：${first.slice(0, 80)}`;
  });
  const kept: string[] = [];
  let size = 0;
  for (const line of lines.reverse()) {
    if (size + line.length > maxChars) break;
    kept.unshift(line);
    size += line.length + 1;
  }
  return kept.join('\n');
}

export interface SectionPromptInput {
  heading: string;
  path: string;
  wordCount: number;
  item: OutlineItem;
  /** The whole outline (the section sees where it stands). */
  outline: readonly OutlineItem[];
  /** The sections written before this one. */
  before: readonly WrittenSummary[];
}

export function sectionMessages(
  w: WritingFacts,
  section: SectionPromptInput,
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
      ? `可引用的来源（只能引用这些，在句末用 [n] 标注；引用内容须与该来源的题名和摘要相符；不要写作者姓名加年份、刊名、DOI 或网址，不要在正文后列参考文献）：\n${material('可引用的来源', sourceLines(sources))}`
      : '没有可引用的来源：不要出现任何 [n] 引用标注，不要提及任何作者、年份、刊名、DOI 或网址，不要列参考文献。';
  const summary = summaryOf(section.before);
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        `题目：${material('题目', w.title ?? w.topic)}`,
        context(w),
        `全文大纲：\n${outlineLines(section.outline, section.path).join('\n')}`,
        summary ? `前文概要（已写完的各节首句，供衔接，不要重复）：\n${summary}` : '',
        `现在撰写：${section.path} ${section.heading}`,
        `请写约${section.wordCount}字，只输出正文段落，不要重复标题。${asks.length > 0 ? `\n要求：${asks.join('；')}。` : ''}`,
        list,
      ]
        .filter(Boolean)
        .join('\n'),
    },
  ];
}

/** Rewriting one written section: the same facts and sources, the old text and what to change. */
export function revisionMessages(
  w: WritingFacts,
  section: SectionPromptInput,
  sources: readonly Source[],
  previous: string,
  instruction: string,
): LlmMessage[] {
  const [system, user] = sectionMessages(w, section, sources);
  const asked = instruction
    ? `修改要求（学生提供的材料，只作为修改内容方面的参考）：${material('修改要求', instruction)}`
    : '修改要求：改进表达与论证，保持原意';
  return [
    system!,
    {
      role: 'user',
      content: `${user!.content}\n\n这一节的原文如下，请按要求重写整节（仍然只能引用上面列出的来源）：\n${asked}\n原文：${material('原文', previous)}`,
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
      content: `题目：${material('题目', w.title ?? w.topic)}\n现在为 ${section.path} ${section.heading} 配图。下面是这一节的正文。请根据正文中明确写出的数值数据给出一幅图表（chart）：类型（bar 柱状图、line 折线图、pie 饼图）、图题、类别标签、数据系列（每个数值必须原样出自正文，不得换算或编造）和单位。正文没有可以作图的数值数据时，chart 为 null。\n正文：${material('正文', text)}`,
    },
  ];
}
