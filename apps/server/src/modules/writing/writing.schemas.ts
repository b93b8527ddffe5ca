import { WRITING_AREAS } from '@kyfw/db';
import { z } from 'zod';
import { TEXTS } from './writing.texts.ts';

/** Request bodies of /aiWriting/* (docs/api/writing.md) and the LLM's structured answers. */

const topic = z
  .string({ error: TEXTS.topicRequired })
  .trim()
  .min(1, { error: TEXTS.topicRequired })
  .min(2, { error: TEXTS.topicTooShort })
  .max(200, { error: TEXTS.topicTooLong });
const area = z.enum(WRITING_AREAS, { error: TEXTS.areaInvalid });
const writingId = z
  .string({ error: TEXTS.writingIdRequired })
  .trim()
  .regex(/^[0-9a-f-]{36}$/i, { error: TEXTS.writingNotFound });

export const writingIdBody = z.object({ writingId });

export const titleBody = z.object({
  area: area.default('dissertation'),
  topic,
  discipline: z.string().trim().max(50, { error: TEXTS.disciplineTooLong }).default(''),
});

export const saveOrderBody = z.object({
  writingId: writingId.optional(),
  area,
  topic,
  title: z
    .string({ error: TEXTS.titleRequired })
    .trim()
    .min(2, { error: TEXTS.titleRequired })
    .max(200, { error: TEXTS.titleTooLong }),
  discipline: z.string().trim().max(50, { error: TEXTS.disciplineTooLong }).default(''),
  degree: z.enum(['专科', '本科', '硕士', '博士', ''], { error: TEXTS.degreeInvalid }).default('本科'),
  language: z.enum(['zh', 'en']).default('zh'),
  targetWords: z.coerce
    .number({ error: TEXTS.targetWordsInvalid })
    .int({ error: TEXTS.targetWordsInvalid })
    .min(1000, { error: TEXTS.targetWordsInvalid })
    .max(100_000, { error: TEXTS.targetWordsInvalid }),
  requirements: z.string().trim().max(2000, { error: TEXTS.requirementsTooLong }).default(''),
  templateId: z.string().trim().max(40).default('general'),
});

const flag = z.enum(['0', '1'], { error: TEXTS.flagInvalid }).default('0');

/** One outline item (spec §3): name, wordCount and the four flags; children two levels below a chapter. */
export interface OutlineItem {
  name: string;
  wordCount: number;
  form: '0' | '1';
  formula: '0' | '1';
  code: '0' | '1';
  picture: '0' | '1';
  children?: OutlineItem[];
}

const itemFields = {
  name: z
    .string({ error: TEXTS.outlineNameRequired })
    .trim()
    .min(1, { error: TEXTS.outlineNameRequired })
    .max(60, { error: TEXTS.outlineNameTooLong }),
  wordCount: z.coerce
    .number({ error: TEXTS.outlineWordsInvalid })
    .int({ error: TEXTS.outlineWordsInvalid })
    .min(0, { error: TEXTS.outlineWordsInvalid })
    .max(50_000, { error: TEXTS.outlineWordsInvalid }),
  form: flag,
  formula: flag,
  code: flag,
  picture: flag,
};
const level3 = z.object(itemFields).strict();
const level2 = z.object({
  ...itemFields,
  children: z.array(level3, { error: TEXTS.outlineTooDeep }).max(12).optional(),
});
const level1 = z.object({ ...itemFields, children: z.array(level2).max(15).optional() });
export const outlineSchema = z.array(level1).min(1, { error: TEXTS.outlineEmpty }).max(15);

export const combOutlineBody = z.object({ writingId, outline: outlineSchema });

export const searchReferenceBody = z.object({
  keyword: z
    .string({ error: TEXTS.keywordRequired })
    .trim()
    .min(1, { error: TEXTS.keywordRequired })
    .max(100),
  limit: z.coerce.number().int().min(1).max(30).default(10),
});

export const analysisReferenceBody = z.object({
  text: z
    .string({ error: TEXTS.referenceTextRequired })
    .trim()
    .min(1, { error: TEXTS.referenceTextRequired })
    .max(20_000, { error: TEXTS.referenceTextTooLong }),
  writingId: writingId.optional(),
});

export const payBody = z.object({ writingId, payType: z.enum(['wx', 'ali']).default('wx') });

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
