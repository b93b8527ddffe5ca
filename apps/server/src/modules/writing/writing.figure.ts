import { z } from 'zod';
import { LlmError, type LlmProvider } from '../../providers/llm/index.ts';
import { checkStrings } from './writing.checked.ts';
import { figureMessages, type WritingFacts } from './writing.prompts.ts';
import type { OutlineItem } from './writing.schemas.ts';

/**
 * Figures of a draft: where an outline item asks for a picture (`picture: '1'`), the LLM is asked
 * for a chart spec of the numbers the section's text gives (structured output, `figureAnswer`); a
 * spec is kept only when every number it charts appears in that text (`checkFigure`), so a chart
 * never shows a number the draft does not state. Otherwise the .docx keeps the marked placeholder
 * box. The chart itself is drawn by writing.chart.ts.
 */

const value = z.number().finite().min(-1e12).max(1e12);

export const figureSpec = z
  .object({
    type: z.enum(['bar', 'line', 'pie']).describe('图表类型：bar 柱状图、line 折线图、pie 饼图'),
    caption: z.string().trim().min(2).max(60).describe('图题（不含“图1-1”编号）'),
    labels: z.array(z.string().trim().min(1).max(20)).min(2).max(12).describe('横轴类别或饼图各部分'),
    series: z
      .array(
        z.object({
          name: z.string().trim().max(20).describe('数据系列名称'),
          values: z.array(value).describe('与 labels 一一对应的数值，必须是正文中出现的数字'),
        }),
      )
      .min(1)
      .max(4),
    unit: z.string().trim().max(12).describe('数值单位，如 %、人、万元；没有则为空字符串'),
  })
  .superRefine((spec, ctx) => {
    spec.series.forEach((s, i) => {
      if (s.values.length !== spec.labels.length)
        ctx.addIssue({
          code: 'custom',
          path: ['series', i, 'values'],
          message: 'values 个数须与 labels 相同',
        });
    });
    if (spec.type === 'pie' && (spec.series.length !== 1 || spec.series[0]!.values.some((v) => v < 0)))
      ctx.addIssue({ code: 'custom', path: ['series'], message: '饼图只能有一个系列，且数值不能为负' });
  });
export type FigureSpec = z.infer<typeof figureSpec>;

/** The LLM's answer: a chart, or null when the text gives no numbers to draw. */
export const figureAnswer = z.object({ chart: figureSpec.nullable() });

/** Numbers written in a text (citation marks left out; 1,234 read as 1234; full-width digits too). */
export function numbersIn(text: string): Set<number> {
  const plain = text.normalize('NFKC').replace(/\[(\d{1,3}(?:\s*[,，\-–]\s*\d{1,3})*)\]/g, ' ');
  const out = new Set<number>();
  for (const m of plain.matchAll(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)) {
    out.add(Number(m[0].replace(/,/g, '')));
    // "12,18" may be a list rather than a thousands separator: its parts count too.
    if (m[0].includes(',')) for (const part of m[0].split(',')) out.add(Number(part));
  }
  return out;
}

/** Why a spec is not drawn, or null when it may be: it must validate and chart only the text's numbers. */
export function figureProblem(spec: unknown, text: string): string | null {
  const parsed = figureSpec.safeParse(spec);
  if (!parsed.success) return 'invalid';
  const known = numbersIn(text);
  const missing = parsed.data.series.flatMap((s) => s.values).filter((v) => !known.has(v));
  return missing.length > 0 ? `numbers not in text: ${missing.slice(0, 5).join(', ')}` : null;
}

/**
 * The figure of a written section whose item asks for a picture: the LLM's spec when it is valid
 * and charts only numbers of the text, else null (the placeholder). An LLM that fails or answers
 * nonsense gives null too — the section is delivered with its placeholder, not failed.
 */
export async function figureForSection(
  llm: LlmProvider,
  input: {
    facts: WritingFacts;
    section: { path: string; heading: string; item: OutlineItem };
    text: string;
    userId: string;
    orderNo: string | null;
    signal?: AbortSignal;
  },
): Promise<FigureSpec | null> {
  if (input.section.item.picture !== '1') return null;
  let answer: z.infer<typeof figureAnswer>;
  try {
    const result = await llm.structured({
      task: 'writing.figure',
      userId: input.userId,
      orderNo: input.orderNo,
      messages: figureMessages(input.facts, input.section, input.text),
      schema: figureAnswer,
      schemaName: 'figure',
      ...(input.signal ? { signal: input.signal } : {}),
    });
    answer = result.value;
  } catch (error) {
    if (error instanceof LlmError && error.kind !== 'aborted') return null;
    throw error;
  }
  if (!answer.chart || figureProblem(answer.chart, input.text) !== null) return null;
  // Its words are shown (the caption in the .docx, labels in the picture): they pass the output
  // checks like any text, else the placeholder.
  const chart = answer.chart;
  const words = [
    { text: chart.caption, language: input.facts.language === 'en' ? ('any' as const) : ('zh' as const) },
    ...[...chart.labels, ...chart.series.map((s) => s.name)]
      .filter(Boolean)
      .map((text) => ({ text, language: 'any' as const })),
  ];
  if (checkStrings(words, figureMessages(input.facts, input.section, input.text)).length > 0) return null;
  return chart;
}
