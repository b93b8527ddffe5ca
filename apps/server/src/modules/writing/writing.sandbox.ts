import {
  factsOf,
  registerSandboxTemplate,
  SANDBOX_MARK,
  type SandboxPrompt,
  sandboxText,
} from '../../providers/llm/index.ts';
import { FIGURE_ASK } from './writing.prompts.ts';
import { TEXTS } from './writing.texts.ts';

/**
 * The prompt as the sandbox's template reader expects it: fenced material (`<<<用户材料:题目` …
 * `>>>`) unwrapped, so `题目：…` reads the title. A real model reads the fences; the sandbox only
 * needs the words.
 */
export function plainPrompt(prompt: SandboxPrompt): SandboxPrompt {
  const unfence = (text: string) => text.replace(/<<<用户材料:[^\n>]*\n([\s\S]*?)\n>>>/g, '$1');
  return { ...prompt, user: unfence(prompt.user), system: unfence(prompt.system) };
}

/**
 * The LLM sandbox's answers for the writer's structured tasks: plain templates, every text marked
 * 【沙箱示例】, shaped by what the prompt says (topic, target length). Registered at import time.
 */

const TITLE_PATTERNS = [
  ['{t}研究', '直接以主题为研究对象，范围清楚'],
  ['{t}的现状、问题与对策研究', '现状—问题—对策是本科论文常见的稳妥结构'],
  ['基于案例分析的{t}研究', '以具体案例支撑论证，便于收集材料'],
  ['{t}的影响因素分析', '聚焦影响因素，便于提出可检验的假设'],
  ['{t}的比较研究', '通过比较突出差异与启示'],
] as const;

registerSandboxTemplate('writing.title', (prompt) => {
  const topic = factsOf(plainPrompt(prompt)).topic || '本课题';
  return {
    titles: TITLE_PATTERNS.map(([t, reason]) => ({
      title: `${SANDBOX_MARK}${t.replace('{t}', topic)}`.slice(0, 120),
      reason: `${SANDBOX_MARK}${reason}`,
    })),
  };
});

const CHAPTERS = [
  ['绪论', ['研究背景与意义', '国内外研究现状', '研究内容与方法']],
  ['相关概念与理论基础', ['核心概念界定', '理论基础']],
  ['现状与问题分析', ['现状描述', '存在的主要问题', '问题成因']],
  ['对策与建议', ['总体思路', '具体措施']],
  ['结论与展望', []],
] as const;
const SHARES = [0.15, 0.2, 0.3, 0.25, 0.1];

registerSandboxTemplate('writing.outline', (prompt) => {
  const target = Number(/全文目标字数：(\d+)/.exec(prompt.user)?.[1] ?? 8000);
  return {
    chapters: CHAPTERS.map(([name, children], i) => {
      const words = Math.round(target * SHARES[i]!);
      return {
        name: `${SANDBOX_MARK}${name}`,
        wordCount: words,
        children: children.map((child) => ({
          name: child,
          wordCount: Math.round(words / children.length),
        })),
      };
    }),
  };
});

registerSandboxTemplate('writing.abstract', (prompt) => {
  const topic = factsOf(plainPrompt(prompt)).topic || '本课题';
  return {
    zh: `${SANDBOX_MARK}本文围绕“${topic}”展开，梳理相关概念与研究现状，分析存在的问题及其成因，并提出相应的对策建议。此段为沙箱模板文字，不是人工智能写作结果，请替换为你自己的摘要。`,
    en: `${SANDBOX_MARK}This is sandbox template text, not AI writing. The paper studies "${topic}", reviews related work, analyses the main problems and proposes measures.`,
    keywordsZh: [`${SANDBOX_MARK}${topic}`.slice(0, 20), '现状', '对策'],
    keywordsEn: ['sandbox example', 'status quo', 'countermeasures'],
  };
});

/** The sandbox's invented sample numbers for a figure (label, 项). */
const SAMPLE_FIGURE_DATA = [
  ['甲类', 12],
  ['乙类', 18],
  ['丙类', 25],
  ['丁类', 30],
] as const;

/** The sandbox's sentence of invented figure data, marked and said to be invented. */
export function sandboxFigureData(): string {
  return `${SANDBOX_MARK}${TEXTS.sandboxFigureDataHead}${SAMPLE_FIGURE_DATA.map(([l, n]) => `${l} ${n} 项`).join('、')}。`;
}

/**
 * A section's text: the sandbox's template paragraphs, plus a sample formula, an empty table frame
 * or a sentence of invented figure data when the outline item asks for one (the prompt says
 * 包含一个公式 / 包含一个表格 / 配一幅图), each labelled as a sandbox sample so nobody takes it for
 * written content or data.
 */
registerSandboxTemplate('writing.section', (prompt) => {
  const parts = [sandboxText(plainPrompt(prompt))];
  if (prompt.user.includes('包含一个公式'))
    parts.push(
      `${SANDBOX_MARK}示例公式（样本均值），请替换为你自己的公式：`,
      '$$ \\bar{x} = \\frac{1}{n} \\sum_{i=1}^{n} x_i $$',
    );
  if (prompt.user.includes('包含一个表格'))
    parts.push(
      `${SANDBOX_MARK}示例表格只给出结构，没有数据，请按你的材料填写：`,
      '| 项目 | 数值 | 说明 |',
      '| --- | --- | --- |',
      '| （待填写） | （待填写） | （待填写） |',
    );
  if (prompt.user.includes(FIGURE_ASK)) parts.push(sandboxFigureData());
  return parts.join('\n');
});

/**
 * The figure spec of the sandbox (task writing.figure): the pairs of its own sample data sentence
 * in the section text, as a bar chart marked 沙箱示例数据; none when the text has no such sentence.
 */
registerSandboxTemplate('writing.figure', (prompt) => {
  const line = prompt.user.split('\n').find((l) => l.includes(TEXTS.sandboxFigureDataHead));
  const data = line?.slice(line.indexOf(TEXTS.sandboxFigureDataHead) + TEXTS.sandboxFigureDataHead.length);
  const pairs = data ? [...data.matchAll(/([\u4e00-\u9fff]{1,6})\s*(\d+(?:\.\d+)?)\s*项/g)] : [];
  if (pairs.length < 2) return { chart: null };
  return {
    chart: {
      type: 'bar',
      caption: `${SANDBOX_MARK}${TEXTS.sandboxFigureCaption}`,
      labels: pairs.map((p) => p[1]!),
      series: [{ name: TEXTS.sandboxFigureSeries, values: pairs.map((p) => Number(p[2])) }],
      unit: '项',
    },
  };
});
