import { z } from 'zod';

/** The LLM's structured answers; the request bodies are the contract's (@kyfw/contracts writingApi). */

export type { OutlineItem } from '@kyfw/contracts';

// --- the LLM's structured answers --------------------------------------------------------------

export const titleSuggestions = z.object({
  titles: z
    .array(
      z.object({
        title: z.string().min(4).max(120).describe('论文题目'),
        reason: z.string().min(4).max(200).describe('推荐理由（一句话）'),
      }),
    )
    .min(3)
    .max(8),
});

const llmItem3 = z.object({
  name: z.string().min(1).max(60),
  wordCount: z.number().int().min(0).max(50_000),
});
const llmItem2 = z.object({ ...llmItem3.shape, children: z.array(llmItem3).max(8).optional() });
const llmItem1 = z.object({ ...llmItem3.shape, children: z.array(llmItem2).max(12).optional() });
/** The outline the model proposes (flags are the student's to set). */
export const outlineSuggestion = z.object({ chapters: z.array(llmItem1).min(2).max(12) });

export const abstractSuggestion = z.object({
  zh: z.string().min(20).max(2000),
  en: z.string().min(20).max(4000),
  keywordsZh: z.array(z.string().min(1).max(20)).min(3).max(8),
  keywordsEn: z.array(z.string().min(1).max(60)).min(3).max(8),
});
export type AbstractValue = z.infer<typeof abstractSuggestion>;
