import { z } from 'zod';
import { endpoint, isoDate, nullData } from './endpoint.ts';
import { goodsSchema, payQrSchema, payTypeSchema } from './orders.ts';

/** 降重 and 降AIGC under /weightReduction (docs/api/reduction.md). */

// --- request pieces -------------------------------------------------------------------------------

const reductionId = z
  .string({ error: '缺少降重记录编号' })
  .trim()
  .regex(/^[0-9a-f-]{36}$/i, { error: '降重记录不存在' });

export const reductionKindSchema = z
  .enum(['reduction', 'aigc_reduction'], { error: '请选择降重或降AIGC' })
  .default('reduction');
export type ReductionKind = 'reduction' | 'aigc_reduction';

const reductionIdBody = z.object({ reductionId });
const priceBody = z.object({ chars: z.coerce.number().int().min(0).max(10_000_000).optional() });

/** Messages the web form shows too. */
export const REDUCTION_RULES = {
  title: { max: 200, tooLong: '标题不能超过200字' },
  text: { required: '请输入需要改写的文字', max: 2_000_000, tooLong: '文字过长，请分段提交' },
} as const;

const title = z
  .string()
  .trim()
  .max(REDUCTION_RULES.title.max, { error: REDUCTION_RULES.title.tooLong })
  .optional();

/** The text fields of /submitFile (multipart, beside the file). */
export const reductionFileFieldsSchema = z.object({ kind: reductionKindSchema, title });

// --- response pieces ------------------------------------------------------------------------------

export const reductionPriceSchema = goodsSchema.extend({
  kind: z.enum(['reduction', 'aigc_reduction']),
  kindName: z.string(),
  /** The characters priced (null: none given). */
  chars: z.number().nullable(),
  /** What `chars` would cost; null without chars. */
  amountFen: z.number().nullable(),
});
export type ReductionPrice = z.output<typeof reductionPriceSchema>;

export const submittedReductionSchema = z.object({
  reductionId: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  amount: z.string(),
  chars: z.number(),
  /** Paragraphs that will be rewritten. */
  paragraphs: z.number(),
});
export type SubmittedReduction = z.output<typeof submittedReductionSchema>;

/**
 * What a reduction gave back (decision 0027): the part of the price that paid for paragraphs not
 * rewritten, or all of it when none was rewritten or the rewrite failed. `state` and `text` come
 * from the refund itself: 已自动退款 only once the platform confirmed it.
 */
export const reductionRefundSchema = z.object({
  amountFen: z.number(),
  amount: z.string(),
  state: z.enum(['refunding', 'refunded', 'refunded_by_hand', 'failed']),
  /** The whole price (nothing delivered). */
  full: z.boolean(),
  text: z.string(),
});
export type ReductionRefund = z.output<typeof reductionRefundSchema>;

export const reductionViewSchema = z.object({
  reductionId: z.string(),
  kind: z.enum(['reduction', 'aigc_reduction']),
  kindName: z.string(),
  source: z.enum(['text', 'file', 'report']),
  title: z.string(),
  fileName: z.string().nullable(),
  chars: z.number(),
  orderId: z.string().nullable(),
  status: z.enum(['ordered', 'rewriting', 'done', 'failed']),
  statusText: z.string(),
  /** 0–100 */
  progress: z.number(),
  /**
   * While the paid job waits for a worker: how many queued jobs a worker takes before it (statusText
   * then says 排队中，前面还有 N 个任务 and progress is 0). Null or absent when it is not waiting.
   */
  queueAhead: z.number().nullable().optional(),
  paragraphs: z.number(),
  rewritten: z.number(),
  kept: z.number(),
  /** 总文字复制比 before and after, from our engine (0–1). */
  rateBefore: z.number().nullable(),
  rateAfter: z.number().nullable(),
  /** AIGC index before and after, from our detector (0–100). */
  aigcBefore: z.number().nullable(),
  aigcAfter: z.number().nullable(),
  /** Rewritten by the LLM sandbox: its text is marked 【沙箱示例】. */
  sandbox: z.boolean(),
  /** Money given back for what was not delivered; null: nothing. */
  refund: reductionRefundSchema.nullable(),
  createdAt: isoDate,
  finishedAt: isoDate.nullable(),
});
export type ReductionView = z.output<typeof reductionViewSchema>;

export const reductionItemSchema = z.object({
  index: z.number(),
  before: z.string(),
  after: z.string(),
  outcome: z.enum(['rewritten', 'kept', 'unchanged']),
  /** Why a paragraph was kept as it was (the rules its last rewrite broke), in one sentence. */
  note: z.string().nullable(),
  /**
   * For kept: each rule the last rewrite broke — a fact rule (number, name, direction, negation,
   * dropped, added, citation, quote, title, formula, term, length) or an output rule (empty,
   * refusal, wrong_language, prompt_echo, injection, not_a_rewrite, truncated, …) — with its message.
   */
  problems: z.array(z.object({ rule: z.string(), message: z.string() })),
});
export type ReductionItem = z.output<typeof reductionItemSchema>;

export const reductionResultSchema = reductionViewSchema.extend({
  sandboxNote: z.string().nullable(),
  items: z.array(reductionItemSchema),
});
export type ReductionResult = z.output<typeof reductionResultSchema>;

// --- endpoints ----------------------------------------------------------------------------------

const submitReport = {
  body: z.object({
    kind: reductionKindSchema,
    orderId: z
      .string({ error: '请选择查重报告' })
      .trim()
      .regex(/^[0-9a-f-]{36}$/i, { error: '查重报告不存在或不属于当前账号' }),
  }),
  data: submittedReductionSchema,
};

export const reductionApi = {
  getGoodsPrice: endpoint({
    path: '/weightReduction/getGoodsPrice',
    body: priceBody,
    data: reductionPriceSchema,
  }),
  getGoodsPriceAI: endpoint({
    path: '/weightReduction/getGoodsPriceAI',
    body: priceBody,
    data: reductionPriceSchema,
  }),
  submitContent: endpoint({
    path: '/weightReduction/submitContent',
    body: z.object({
      kind: reductionKindSchema,
      title,
      // The goods' limit (with its message) is checked by the service; this only bounds the request.
      text: z
        .string({ error: REDUCTION_RULES.text.required })
        .max(REDUCTION_RULES.text.max, { error: REDUCTION_RULES.text.tooLong }),
    }),
    data: submittedReductionSchema,
  }),
  /** multipart: the file and reductionFileFieldsSchema's fields. */
  submitFile: endpoint({ path: '/weightReduction/submitFile', data: submittedReductionSchema }),
  /** One of the user's own finished check reports: only its flagged paragraphs are rewritten. */
  submitReport: endpoint({ path: '/weightReduction/submitReport', ...submitReport }),
  /** The same turn from 我的订单: a check order becomes a 降重 order (the check order stays). */
  orderTrans: endpoint({ path: '/order/trans', ...submitReport }),
  orderPayment: endpoint({
    path: '/weightReduction/orderPayment',
    body: z.object({ reductionId, payType: payTypeSchema }),
    data: payQrSchema,
  }),
  getMyWeightReductionOrder: endpoint({
    path: '/weightReduction/getMyWeightReductionOrder',
    data: z.object({ list: z.array(reductionViewSchema) }),
  }),
  query: endpoint({ path: '/weightReduction/query', body: reductionIdBody, data: reductionViewSchema }),
  txtWeightResult: endpoint({
    path: '/weightReduction/txtWeightResult',
    body: reductionIdBody,
    data: reductionResultSchema,
  }),
  download: endpoint({ path: '/weightReduction/download', body: reductionIdBody, data: 'file' }),
  delReport: endpoint({ path: '/weightReduction/delReport', body: reductionIdBody, data: nullData }),
} as const;
