import { z } from 'zod';
import type { AigcReportModel } from '../aigc-report.ts';
import type { ReportModel } from '../check-report.ts';
import { endpoint, isoDate, nullData } from './endpoint.ts';
import { CHECK_UPLOAD_RULES } from './form-rules.ts';
import {
  goodsSchema,
  intInSchema,
  orderStatusSchema,
  payBody,
  payMethodSchema,
  payQrSchema,
  payStatusFlagSchema,
  payStatusSchema,
} from './orders.ts';

/** The paper-check API under /freeCheck (docs/api/check.md). */

// --- request pieces -------------------------------------------------------------------------------

const orderId = z
  .string({ error: '订单不能为空' })
  .trim()
  .min(1, { error: '订单不能为空' })
  .max(64, { error: '订单格式错误' });

export const checkOrderIdBody = z.object({ orderId });

/** Form values arrive as strings. */
const flag = z.preprocess(
  (v) =>
    v === true || v === 1 || v === '1' || v === 'true' || v === 'on'
      ? true
      : v === undefined || v === ''
        ? false
        : v === false || v === 0 || v === '0' || v === 'false'
          ? false
          : v,
  z.boolean({ error: '参数须为布尔值' }),
);

const requiredText = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, { error: required }).max(max, { error: tooLong });

/** The multipart fields of /freeCheck/uploadFile (beside the file). */
export const uploadFieldsSchema = z.object({
  title: requiredText(
    CHECK_UPLOAD_RULES.title.max,
    CHECK_UPLOAD_RULES.title.required,
    CHECK_UPLOAD_RULES.title.tooLong,
  ),
  author: requiredText(
    CHECK_UPLOAD_RULES.author.max,
    CHECK_UPLOAD_RULES.author.required,
    CHECK_UPLOAD_RULES.author.tooLong,
  ),
  goodsId: z
    .string({ error: CHECK_UPLOAD_RULES.goods.required })
    .trim()
    .min(1, { error: CHECK_UPLOAD_RULES.goods.required })
    .max(40),
  /** The user's opt-in: add the paper to the comparison library after its check. Default false. */
  addToLibrary: flag.default(false),
  /** 同时检测AIGC: AIGC detection ordered with this similarity check (decision 0020). Default false. */
  aigcAddon: flag.default(false),
});

const reportFormat = z.enum(['pdf', 'marked', 'html', 'zip'], {
  error: '下载格式须为 pdf、marked、html 或 zip',
});
/** pdf (检测报告), marked (全文标明引文), html (网页版报告), zip (全套). */
export type ReportFormat = z.output<typeof reportFormat>;

// --- response pieces ------------------------------------------------------------------------------

export const checkKindSchema = z.enum(['similarity', 'aigc']);
/** similarity: 查重; aigc: AIGC检测 (its report is the AIGC report). */
export type CheckKind = z.output<typeof checkKindSchema>;
export const checkStatusValueSchema = z.enum(['pending', 'queued', 'running', 'done', 'failed']);
export type CheckStatusValue = z.output<typeof checkStatusValueSchema>;
export const checkStageSchema = z.enum(['parsing', 'comparing', 'detecting', 'reporting']);
export type CheckStage = z.output<typeof checkStageSchema>;

/** One product of /freeCheck/goodsList (本科 / 硕博 / 期刊 / AIGC检测). */
export const checkGoodsSchema = goodsSchema.loose().extend({
  /** Yuan per 1,000 characters. */
  pricePerThousand: z.string(),
  /** The free check's character cap for these goods; null when it has no free check. */
  freeMaxChars: z.number().nullable(),
  /** The logged-in user holds the free check and may use it on these goods. */
  freeAvailable: z.boolean(),
  /** login (anonymous), available, used, none (earned on an earlier account); null: no free check. */
  freeStatus: z.enum(['login', 'available', 'used', 'none']).nullable().optional(),
  /**
   * What it compares against, from the library as it is: each collection it names with its real
   * number of documents (0: 暂无收录); null for AIGC detection.
   */
  library: z
    .object({
      collections: z.array(z.object({ collection: z.string(), name: z.string(), documents: z.number() })),
      documents: z.number(),
    })
    .nullable()
    .optional(),
  /** Largest upload in bytes. */
  uploadMaxBytes: z.number(),
  kind: checkKindSchema,
  /**
   * Can be ordered now: false while a collection the goods is not sold without holds no document
   * (硕博 while the thesis collection is empty); /freeCheck/uploadFile then refuses it (1001).
   */
  available: z.boolean().optional(),
  /** Why it cannot be ordered now, in the words of the upload's refusal; null when it can. */
  unavailableReason: z.string().nullable().optional(),
  /**
   * Similarity goods: the AIGC goods that can be ordered with it (同时检测AIGC, its price per
   * 1,000 characters and free detection); null when none can (AIGC goods themselves, none on sale).
   */
  aigcAddon: z
    .object({
      goodsId: z.string(),
      name: z.string(),
      pricePerThousand: z.string(),
      /** The whole check is free only when both free uses apply (decision 0020). */
      freeAvailable: z.boolean(),
      freeMaxChars: z.number().nullable(),
    })
    .nullable()
    .optional(),
});
export type CheckGoods = z.output<typeof checkGoodsSchema>;

/** /freeCheck/uploadFile: the parsed paper and its price, before anything is paid. */
export const uploadResultSchema = z.looseObject({
  orderId: z.string(),
  orderNo: z.string(),
  /** Billed characters (字数, whitespace not counted). */
  chars: z.number(),
  /** What is due: "0.00" for a free check. */
  amount: z.string(),
  amountFen: z.number(),
  /** What the paper costs at the catalogue price. */
  price: z.string(),
  /** A free check waiting for /freeCheck/payFee. */
  free: z.boolean(),
  freeNote: z.string().nullable(),
  goodsId: z.string(),
  goodsName: z.string(),
  title: z.string(),
  author: z.string(),
  fileName: z.string(),
  format: z.string(),
  addToLibrary: z.boolean(),
  warnings: z.array(z.string()),
  status: checkStatusValueSchema,
  /** The order's parts (the check and the AIGC add-on), each priced by the server; [] without add-on. */
  parts: z
    .array(
      z.object({ goodsId: z.string(), goodsName: z.string(), amount: z.string(), amountFen: z.number() }),
    )
    .optional(),
  /** The AIGC add-on as ordered; null without it. */
  aigcAddon: z
    .object({
      goodsId: z.string(),
      goodsName: z.string(),
      amount: z.string(),
      amountFen: z.number(),
      free: z.boolean(),
    })
    .nullable()
    .optional(),
});
export type UploadResult = z.output<typeof uploadResultSchema>;

/** The check's part of /freeCheck/orderPayStatus (and /checkStatus, /payFee, /retryCheck). */
export const checkStateSchema = z.looseObject({
  orderId: z.string(),
  free: z.boolean(),
  kind: checkKindSchema,
  checkStatus: checkStatusValueSchema,
  checkStatusText: z.string(),
  stage: checkStageSchema.nullable(),
  stageText: z.string().nullable(),
  /** 0–100 */
  progress: z.number(),
  failureReason: z.string().nullable(),
  canRetry: z.boolean(),
  reportReady: z.boolean(),
  /** The AIGC detection ordered with this check (decision 0020); null without it. */
  aigcAddon: z
    .object({
      goodsName: z.string(),
      /** pending | done | failed (for good: its part refunded or its free use given back) */
      status: z.enum(['pending', 'done', 'failed']),
      statusText: z.string(),
      amount: z.string(),
      free: z.boolean(),
      /** Index 0–100 and whether it is in the reliable range, once done (reference values). */
      score: z.number().nullable(),
      reliable: z.boolean().nullable(),
      /** Characters of its flagged paragraphs, once done: with any, the index is shown (isAigcFigureShown). */
      flaggedChars: z.number().nullable().optional(),
      failureReason: z.string().nullable(),
      /** What was refunded for the part (yuan, "0.00" when nothing). */
      refundedAmount: z.string(),
    })
    .nullable()
    .optional(),
});
export type CheckState = z.output<typeof checkStateSchema>;

/**
 * /freeCheck/orderPayStatus: the orders module's pay status plus the check's progress. A free check
 * has no order: `status` is null and `payStatus` is 1 once it was started.
 */
export const checkPayStatusSchema = checkStateSchema.extend({
  payStatus: payStatusFlagSchema,
  status: orderStatusSchema.nullable(),
  orderNo: z.string().optional(),
  payChannel: payMethodSchema.nullable().optional(),
  paidAt: isoDate.nullable().optional(),
  expireAt: isoDate.optional(),
  offlinePending: z.boolean().optional(),
});
export type CheckPayStatus = z.output<typeof checkPayStatusSchema>;

/** One row of /freeCheck/orderList. */
export const checkListItemSchema = checkStateSchema.extend({
  orderNo: z.string(),
  title: z.string(),
  author: z.string(),
  fileName: z.string(),
  goodsId: z.string(),
  goodsName: z.string().nullable(),
  /** The order's parts (the check and the AIGC add-on); [] without the add-on or without an order. */
  parts: z
    .array(
      z.object({ goodsId: z.string(), goodsName: z.string(), amount: z.string(), amountFen: z.number() }),
    )
    .optional(),
  chars: z.number(),
  amount: z.string(),
  amountFen: z.number(),
  payStatus: payStatusFlagSchema,
  /** The order's status (paid checks); null for a free check. */
  orderStatus: z.string().nullable(),
  /** A transfer proof waits for an operator (待确认): no 去支付, no 删除 until it is reviewed. */
  offlinePending: z.boolean().optional(),
  offlinePendingText: z.string().nullable().optional(),
  createdAt: isoDate,
  finishedAt: isoDate.nullable(),
  reportNo: z.string().nullable(),
  /** 总文字复制比 (0–1) once the report exists; for an AIGC check its AIGC index / 100. */
  ratio: z.number().nullable(),
  /** AIGC check: its index is in the reliable range; null otherwise. */
  aigcReliable: z.boolean().nullable(),
  /** AIGC check: characters of its flagged paragraphs (with any, the index is shown); null otherwise. */
  aigcFlaggedChars: z.number().nullable().optional(),
  actions: z.object({
    view: z.boolean(),
    download: z.boolean(),
    pay: z.boolean(),
    start: z.boolean(),
    retry: z.boolean(),
    delete: z.boolean(),
  }),
});
export type CheckListItem = z.output<typeof checkListItemSchema>;

/** /freeCheck/verify: the signed summary of a genuine report. */
export const verifyResultSchema = z.looseObject({
  genuine: z.boolean().pipe(z.literal(true)),
  message: z.string(),
  reportNo: z.string(),
  title: z.string(),
  /** Masked (张**). */
  author: z.string(),
  goodsName: z.string(),
  totalChars: z.number(),
  copiedChars: z.number(),
  ratio: z.number(),
  ratioExcludingQuotes: z.number(),
  maxSingleSourceRatio: z.number(),
  checkedAt: isoDate,
  /** An AIGC detection report: its index 0–100 and whether it is in the reliable range (signed). */
  kind: z.literal('aigc').optional(),
  aigcScore: z.number().optional(),
  aigcReliable: z.boolean().optional(),
  /** A similarity report with the AIGC detection ordered with it (signed): its index, or failed. */
  aigcAddon: z
    .object({
      goodsName: z.string(),
      failed: z.boolean(),
      score: z.number().nullable(),
      reliable: z.boolean().nullable(),
      /** Characters of flagged paragraphs: the index is shown when any (reports signed since 0035). */
      flaggedChars: z.number().optional(),
    })
    .optional(),
});
export type VerifyResult = z.output<typeof verifyResultSchema>;

/**
 * The stored report model (check-report.ts, aigc-report.ts). The server sends the stored JSON as
 * is (no parse and stringify of a large report per request), so its schema only states its kind.
 */
export const reportModelSchema = z.custom<ReportModel | AigcReportModel>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

// --- endpoints ----------------------------------------------------------------------------------

export const checkApi = {
  goodsList: endpoint({ path: '/freeCheck/goodsList', data: z.array(checkGoodsSchema) }),
  /** multipart: the file and uploadFieldsSchema's fields. */
  uploadFile: endpoint({ path: '/freeCheck/uploadFile', data: uploadResultSchema }),
  payFee: endpoint({ path: '/freeCheck/payFee', body: checkOrderIdBody, data: checkStateSchema }),
  qrPayCode: endpoint({ path: '/freeCheck/freeCheckQrPayCode', body: payBody, data: payQrSchema }),
  orderPayStatus: endpoint({
    path: '/freeCheck/orderPayStatus',
    body: checkOrderIdBody,
    /** An order without its check row (deleted) is answered as the orders module would. */
    data: z.union([checkPayStatusSchema, payStatusSchema]),
  }),
  checkStatus: endpoint({ path: '/freeCheck/checkStatus', body: checkOrderIdBody, data: checkStateSchema }),
  retryCheck: endpoint({ path: '/freeCheck/retryCheck', body: checkOrderIdBody, data: checkStateSchema }),
  report: endpoint({ path: '/freeCheck/report', body: checkOrderIdBody, data: reportModelSchema }),
  downloadReport: endpoint({
    path: '/freeCheck/downloadReport',
    body: z
      .object({ orderId, format: reportFormat.optional(), kind: reportFormat.optional() })
      .transform((b) => ({ orderId: b.orderId, format: b.format ?? b.kind ?? 'pdf' })),
    data: 'file',
  }),
  orderList: endpoint({
    path: '/freeCheck/orderList',
    body: z.object({
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 50, 10, '每页条数'),
    }),
    data: z.object({ list: z.array(checkListItemSchema), total: z.number() }),
  }),
  deleteOrder: endpoint({ path: '/freeCheck/deleteOrder', body: checkOrderIdBody, data: nullData }),
  verify: endpoint({
    path: '/freeCheck/verify',
    body: z.object({
      reportNo: z
        .string({ error: '请输入报告编号' })
        .trim()
        .min(1, { error: '请输入报告编号' })
        .max(40, { error: '报告编号格式错误' }),
      code: z
        .string({ error: '请输入验证码' })
        .trim()
        .min(1, { error: '请输入验证码' })
        .max(20, { error: '验证码格式错误' }),
    }),
    data: verifyResultSchema,
  }),
} as const;
