import { z } from 'zod';
import { endpoint, isoDate, nullData } from './endpoint.ts';
import { WRITING_LIMITS } from './form-rules.ts';
import { payQrSchema, payStatusSchema, payTypeSchema } from './orders.ts';

/** The AI writing API under /aiWriting (docs/api/writing.md). */

export const WRITING_AREAS = ['dissertation', 'proposal', 'assignment', 'journalsReviewed'] as const;
export type WritingAreaId = (typeof WRITING_AREAS)[number];

const L = WRITING_LIMITS;

/** Messages of the writing forms (the web shows the same). */
export const WRITING_RULES = {
  topicRequired: '请输入论文主题',
  topicTooShort: '论文主题至少 2 个字',
  topicTooLong: '论文主题不能超过 200 个字',
  titleRequired: '请先选择或输入论文题目',
  titleTooLong: '论文题目不能超过 200 个字',
  areaInvalid: '写作类型不正确',
  targetWordsInvalid: '目标字数须在 1000 到 100000 之间',
  requirementsTooLong: '写作要求不能超过 2000 个字',
  disciplineTooLong: '学科不能超过 50 个字',
  degreeInvalid: '学历层次不正确',
  writingIdRequired: '缺少论文编号',
  writingNotFound: '论文不存在或已删除',
  outlineEmpty: '大纲至少需要一章',
  outlineTooDeep: '大纲最多三级（章、节、小节）',
  outlineNameRequired: '大纲条目名称不能为空',
  outlineNameTooLong: '大纲条目名称不能超过 60 个字',
  outlineWordsInvalid: '每个条目的字数须为 0 到 50000 之间的整数',
  flagInvalid: '条目标记只能为 0 或 1',
  referenceTextRequired: '请粘贴参考文献',
  referenceTextTooLong: '参考文献文本不能超过 20000 个字',
  keywordRequired: '请输入检索词',
  keywordTooLong: '检索词不能超过 100 个字',
  yearInvalid: '年份须为 1900 到 2100 之间的整数',
  yearRangeReversed: '起始年份不能晚于截止年份',
  outlineTooLong: '大纲最多 15 章，每章最多 15 节，每节最多 12 个小节',
  sectionRequired: '请选择要修改的章节',
  instructionTooLong: '修改要求不能超过 500 个字',
} as const;
const R = WRITING_RULES;

// --- request pieces -------------------------------------------------------------------------------

const topic = z
  .string({ error: R.topicRequired })
  .trim()
  .min(1, { error: R.topicRequired })
  .min(2, { error: R.topicTooShort })
  .max(L.topic, { error: R.topicTooLong });
const area = z.enum(WRITING_AREAS, { error: R.areaInvalid });
const writingId = z
  .string({ error: R.writingIdRequired })
  .trim()
  .regex(/^[0-9a-f-]{36}$/i, { error: R.writingNotFound });

export const writingIdBody = z.object({ writingId });

export const titleBody = z.object({
  area: area.default('dissertation'),
  topic,
  discipline: z.string().trim().max(L.discipline, { error: R.disciplineTooLong }).default(''),
});

export const saveOrderBody = z.object({
  writingId: writingId.optional(),
  area,
  topic,
  title: z
    .string({ error: R.titleRequired })
    .trim()
    .min(2, { error: R.titleRequired })
    .max(L.title, { error: R.titleTooLong }),
  discipline: z.string().trim().max(L.discipline, { error: R.disciplineTooLong }).default(''),
  degree: z.enum(['专科', '本科', '硕士', '博士', ''], { error: R.degreeInvalid }).default('本科'),
  language: z.enum(['zh', 'en']).default('zh'),
  targetWords: z.coerce
    .number({ error: R.targetWordsInvalid })
    .int({ error: R.targetWordsInvalid })
    .min(L.targetWords.min, { error: R.targetWordsInvalid })
    .max(L.targetWords.max, { error: R.targetWordsInvalid }),
  requirements: z.string().trim().max(L.requirements, { error: R.requirementsTooLong }).default(''),
  templateId: z.string().trim().max(40).default('general'),
});

const flag = z.enum(['0', '1'], { error: R.flagInvalid }).default('0');

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
    .string({ error: R.outlineNameRequired })
    .trim()
    .min(1, { error: R.outlineNameRequired })
    .max(L.outlineName, { error: R.outlineNameTooLong }),
  wordCount: z.coerce
    .number({ error: R.outlineWordsInvalid })
    .int({ error: R.outlineWordsInvalid })
    .min(0, { error: R.outlineWordsInvalid })
    .max(L.outlineWords, { error: R.outlineWordsInvalid }),
  form: flag,
  formula: flag,
  code: flag,
  picture: flag,
};
const level3 = z.strictObject(itemFields, { error: R.outlineTooDeep });
const level2 = z.object({
  ...itemFields,
  children: z.array(level3).max(12, { error: R.outlineTooLong }).optional(),
});
const level1 = z.object({
  ...itemFields,
  children: z.array(level2).max(15, { error: R.outlineTooLong }).optional(),
});
export const outlineSchema = z
  .array(level1)
  .min(1, { error: R.outlineEmpty })
  .max(15, { error: R.outlineTooLong });

export const combOutlineBody = z.object({ writingId, outline: outlineSchema });

const year = z.coerce
  .number({ error: R.yearInvalid })
  .int({ error: R.yearInvalid })
  .min(1900, { error: R.yearInvalid })
  .max(2100, { error: R.yearInvalid });
/** Words searched in the records' title, keywords and abstract; optionally a 学科 preferred and a year range kept. */
export const searchReferenceBody = z
  .object({
    keyword: z
      .string({ error: R.keywordRequired })
      .trim()
      .min(1, { error: R.keywordRequired })
      .max(100, { error: R.keywordTooLong }),
    discipline: z.string().trim().max(L.discipline, { error: R.disciplineTooLong }).default(''),
    yearFrom: year.optional(),
    yearTo: year.optional(),
    limit: z.coerce.number().int().min(1).max(30).default(10),
    /** The caller's writing: its supplied references are searched too. */
    writingId: writingId.optional(),
  })
  .refine((b) => b.yearFrom === undefined || b.yearTo === undefined || b.yearFrom <= b.yearTo, {
    error: R.yearRangeReversed,
    path: ['yearTo'],
  });

export const analysisReferenceBody = z.object({
  text: z
    .string({ error: R.referenceTextRequired })
    .trim()
    .min(1, { error: R.referenceTextRequired })
    .max(20_000, { error: R.referenceTextTooLong }),
  writingId: writingId.optional(),
});

export const writingPayBody = z.object({ writingId, payType: payTypeSchema.default('wx') });

/** /updateOrder: rewrite one written section ('2', '1.2', '1.2.3'), optionally as the student asks. */
export const updateOrderBody = z.object({
  writingId,
  path: z
    .string({ error: R.sectionRequired })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2}){0,2}$/, { error: R.sectionRequired }),
  instruction: z.string().trim().max(L.revisionInstruction, { error: R.instructionTooLong }).default(''),
});

// --- answers -----------------------------------------------------------------------------------------

const flagOut = z.enum(['0', '1']);
const outlineItemOut: z.ZodType<OutlineItem> = z.lazy(() =>
  z.object({
    name: z.string(),
    wordCount: z.number(),
    form: flagOut,
    formula: flagOut,
    code: flagOut,
    picture: flagOut,
    children: z.array(outlineItemOut).optional(),
  }),
);
export const outlineOutSchema = z.array(outlineItemOut);

export const abstractSchema = z.object({
  zh: z.string(),
  en: z.string(),
  keywordsZh: z.array(z.string()),
  keywordsEn: z.array(z.string()),
});

const sourceFields = {
  title: z.string(),
  authors: z.array(z.string()),
  year: z.number().nullable(),
  source: z.string().nullable(),
  type: z.string(),
  volume: z.string().nullable().optional(),
  issue: z.string().nullable().optional(),
  pages: z.string().nullable().optional(),
};
export const writingSourceSchema = z.object({
  n: z.number(),
  ...sourceFields,
  origin: z.enum(['library', 'supplied']),
});

/** Found references: the student's own (with writingId) first, then the library's records. */
const referenceResultsSchema = z.object({
  list: z.array(
    z.object({
      ...sourceFields,
      discipline: z.string().nullable(),
      origin: z.enum(['library', 'supplied']),
      formatted: z.string(),
    }),
  ),
  /** How many records matched (never more than exist; the list shows up to `limit`). */
  total: z.number(),
  message: z.string().nullable(),
});

export const writingViewSchema = z.object({
  writingId: z.string(),
  area: z.enum(WRITING_AREAS),
  areaName: z.string(),
  topic: z.string(),
  title: z.string().nullable(),
  discipline: z.string(),
  degree: z.string(),
  language: z.enum(['zh', 'en']),
  targetWords: z.number(),
  requirements: z.string(),
  templateId: z.string(),
  outline: outlineOutSchema.nullable(),
  abstract: abstractSchema.nullable(),
  sources: z.array(writingSourceSchema),
  orderId: z.string().nullable(),
  status: z.enum(['draft', 'ordered', 'writing', 'done', 'failed']),
  /** A failed draft's status from its order's refund: 全文生成失败，正在自动退款 / 已自动退款 / 退款未能自动完成… */
  statusText: z.string(),
  /**
   * Where a failed draft's money is, from its order's refund: refunding (under way), refunded
   * (the platform confirmed), refused (the platform refused; customer service takes over),
   * refundedByHand (an operator refunded it); null when nothing is being refunded.
   */
  refundState: z.enum(['refunding', 'refunded', 'refused', 'refundedByHand']).nullable(),
  progress: z.number(),
  /**
   * While the paid job waits for a worker: how many queued jobs a worker takes before it (statusText
   * then says 排队中，前面还有 N 个任务 and progress is 0). Null or absent when it is not waiting.
   */
  queueAhead: z.number().nullable().optional(),
  sectionsWritten: z.number(),
  wordsWritten: z.number(),
  removedCitations: z.number(),
  freeOutline: z.boolean(),
  /** Section revisions still free on this draft; null once the unlimited-revisions add-on is paid. */
  revisionsLeft: z.number().nullable(),
  unlimitedRevisions: z.boolean(),
  /** The add-on's order while it waits for payment (pay it through freeCheckQrPayCode). */
  revisionsOrderId: z.string().nullable(),
  /** The section being revised, or the last revision that failed (nothing was counted for it). */
  revision: z
    .object({
      path: z.string(),
      instruction: z.string(),
      state: z.enum(['running', 'failed']),
      /** Why it failed; while its job waits for a worker, 排队中，前面还有 N 个任务 (or 排队中，即将开始). */
      message: z.string().nullable(),
      /** While its job waits for a worker: queued jobs a worker takes before it; else null or absent. */
      queueAhead: z.number().nullable().optional(),
    })
    .nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  finishedAt: isoDate.nullable(),
  /** The answer came from the LLM sandbox: its texts are templates marked 【沙箱示例】. */
  sandbox: z.boolean(),
});
export type WritingViewWire = z.output<typeof writingViewSchema>;

export const writtenSectionSchema = z.object({
  path: z.string(),
  heading: z.string(),
  level: z.number(),
  text: z.string(),
  removedCitations: z.number(),
});

const parsedReferenceSchema = z.object({
  raw: z.string(),
  fields: z.object(sourceFields).nullable(),
  formatted: z.string().nullable(),
});

const submittedOrderSchema = z.object({
  writingId: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  amount: z.string(),
});

export const writingApi = {
  title: endpoint({
    path: '/aiWriting/title',
    body: titleBody,
    data: z.object({
      titles: z.array(z.object({ title: z.string(), reason: z.string() })),
      sandbox: z.boolean(),
    }),
  }),
  saveOrder: endpoint({ path: '/aiWriting/saveOrder', body: saveOrderBody, data: writingViewSchema }),
  freeOutlineNumber: endpoint({ path: '/aiWriting/freeOutlineNumber', data: z.object({ free: z.number() }) }),
  outline: endpoint({
    path: '/aiWriting/outline',
    body: writingIdBody,
    data: z.object({ outline: outlineOutSchema, freeOutlinesLeft: z.number(), sandbox: z.boolean() }),
  }),
  combOutline: endpoint({
    path: '/aiWriting/combOutline',
    body: combOutlineBody,
    data: z.object({ outline: outlineOutSchema }),
  }),
  abstract: endpoint({
    path: '/aiWriting/abstract',
    body: writingIdBody,
    data: abstractSchema.extend({ sandbox: z.boolean() }),
  }),
  searchReference: endpoint({
    path: '/aiWriting/searchReference',
    body: searchReferenceBody,
    data: referenceResultsSchema,
  }),
  /** The same for English records (titles without Chinese); the demo library has none and says so. */
  searchEnReference: endpoint({
    path: '/aiWriting/searchEnReference',
    body: searchReferenceBody,
    data: referenceResultsSchema,
  }),
  analysisReference: endpoint({
    path: '/aiWriting/analysisReference',
    body: analysisReferenceBody,
    data: z.object({ list: z.array(parsedReferenceSchema) }),
  }),
  formatTemplate: endpoint({
    path: '/aiWriting/formatTemplate',
    data: z.object({
      list: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
    }),
  }),
  submitOrder: endpoint({ path: '/aiWriting/submitOrder', body: writingIdBody, data: submittedOrderSchema }),
  outlineByPay: endpoint({
    path: '/aiWriting/outlineByPay',
    body: writingIdBody,
    data: submittedOrderSchema,
  }),
  payment: endpoint({ path: '/aiWriting/payment', body: writingPayBody, data: payQrSchema }),
  queryPayStatus: endpoint({ path: '/aiWriting/queryPayStatus', body: writingIdBody, data: payStatusSchema }),
  query: endpoint({ path: '/aiWriting/query', body: writingIdBody, data: writingViewSchema }),
  orderInfo: endpoint({ path: '/aiWriting/orderInfo', body: writingIdBody, data: writingViewSchema }),
  list: endpoint({ path: '/aiWriting/list', data: z.object({ list: z.array(writingViewSchema) }) }),
  fullText: endpoint({
    path: '/aiWriting/fullText',
    body: writingIdBody,
    data: writingViewSchema.extend({ sections: z.array(writtenSectionSchema) }),
  }),
  download: endpoint({ path: '/aiWriting/download', body: writingIdBody, data: 'file' }),
  delOrder: endpoint({ path: '/aiWriting/delOrder', body: writingIdBody, data: nullData }),
  /** multipart: one `file` (.docx/.doc/.pdf/.txt task book or template): its text as requirements. */
  recognitionFile: endpoint({
    path: '/aiWriting/recognitionFile',
    data: z.object({ requirements: z.string(), truncated: z.boolean(), fileName: z.string() }),
  }),
  /** Revises one section of a finished draft in a job (the others stay); the draft's view. */
  updateOrder: endpoint({ path: '/aiWriting/updateOrder', body: updateOrderBody, data: writingViewSchema }),
  /**
   * The unlimited-revisions add-on of a finished draft (goods ai_writing_revisions): its pending order
   * (created once); pay it through /aiWriting/freeCheckQrPayCode and /orderPayStatus.
   */
  unlimitedRevisionsPayment: endpoint({
    path: '/aiWriting/unlimitedRevisions/payment',
    body: writingIdBody,
    data: submittedOrderSchema,
  }),
} as const;
