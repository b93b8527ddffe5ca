import { z } from 'zod';
import { endpoint, isoDate, nullData, uuidSchema } from './endpoint.ts';
import { GOODS_DESCRIPTION_PRICE_ERROR, PRICE_IN_TEXT } from './goods-rules.ts';
import {
  deliverySchema,
  goodsSchema,
  idSchema,
  orderDetailSchema,
  orderSchema,
  proofSchema,
  requiredText,
} from './orders.ts';

// The operator API under /operator (header x-operator-token): payloads and answers for the staff's
// tools and automation, not for the web; the shapes it shares with the user's API are orders.ts's.

const orderNo = z
  .string({ error: '订单号不能为空' })
  .trim()
  .regex(/^KY[0-9]{20}$/, { error: '订单号格式错误' });

/** Payloads of the operator API; their answers are for the operators' tools, not the web. */
export const operatorBodies = {
  order: z.object({ orderNo }),
  refund: z.object({
    orderNo,
    /** Default: everything not yet refunded. */
    amountFen: z.number().int().positive().optional(),
    reason: requiredText(80, '请填写退款原因'),
  }),
  proofList: z.object({ status: z.enum(['pending', 'confirmed', 'rejected']).optional() }),
  proofConfirm: z.object({ proofId: idSchema('凭证'), note: z.string().trim().max(200).optional() }),
  proofReject: z.object({ proofId: idSchema('凭证'), reason: requiredText(200, '请填写驳回原因') }),
  invoiceIssue: z.object({ invoiceId: uuidSchema('发票申请不存在') }),
  ship: z.object({
    orderNo,
    carrier: requiredText(30, '请填写快递公司'),
    trackingNo: z
      .string({ error: '请填写快递单号' })
      .trim()
      .regex(/^[0-9A-Za-z-]{6,40}$/, { error: '快递单号格式错误' }),
  }),
  goodsUpdate: z
    .object({
      goodsId: idSchema('商品'),
      name: z.string().trim().min(1).max(60).optional(),
      description: z
        .string()
        .trim()
        .max(500)
        .refine((text) => !PRICE_IN_TEXT.test(text), { error: GOODS_DESCRIPTION_PRICE_ERROR })
        .optional(),
      unitPriceFen: z.number().int().positive().max(100_000_000).optional(),
      minQuantity: z.number().int().positive().optional(),
      maxQuantity: z.number().int().positive().optional(),
      active: z.boolean().optional(),
    })
    .refine(
      (b) => b.minQuantity === undefined || b.maxQuantity === undefined || b.minQuantity <= b.maxQuantity,
      { error: '最小数量不能大于最大数量' },
    ),
} as const;

const refundSchema = orderDetailSchema.shape.refunds.element;

/** The operator API under /operator (header x-operator-token), for staff tools and automation. */
export const operatorApi = {
  orderDetail: endpoint({
    path: '/operator/orders/detail',
    body: operatorBodies.order,
    data: orderSchema.extend({
      userId: z.string(),
      history: orderDetailSchema.shape.history,
      attempts: z.array(z.object({ channel: z.string(), outTradeNo: z.string(), status: z.string() })),
      payments: z.array(
        z.object({
          paymentId: z.string(),
          channel: z.string(),
          transactionId: z.string().nullable(),
          amountFen: z.number(),
          paidAt: isoDate,
          status: z.string(),
          source: z.string(),
          flagged: z.boolean(),
          flagReason: z.string().nullable(),
          refundedFen: z.number(),
        }),
      ),
      refunds: z.array(refundSchema),
      delivery: deliverySchema.nullable(),
    }),
  }),
  refund: endpoint({ path: '/operator/orders/refund', body: operatorBodies.refund, data: refundSchema }),
  ship: endpoint({
    path: '/operator/orders/ship',
    body: operatorBodies.ship,
    data: deliverySchema.nullable(),
  }),
  flaggedPayments: endpoint({
    path: '/operator/payments/flagged',
    data: z.array(
      z.object({
        paymentId: z.string(),
        orderNo: z.string(),
        channel: z.string(),
        transactionId: z.string().nullable(),
        amountFen: z.number(),
        status: z.string(),
        flagReason: z.string().nullable(),
        paidAt: isoDate,
      }),
    ),
  }),
  proofs: endpoint({
    path: '/operator/offline/proofs',
    body: operatorBodies.proofList,
    data: z.array(
      proofSchema.extend({
        orderNo: z.string(),
        amountFen: z.number(),
        amount: z.string(),
        mimeType: z.string(),
        sizeBytes: z.number(),
      }),
    ),
  }),
  proofFile: endpoint({ method: 'GET', path: '/operator/offline/proofs/:proofId/file', data: 'file' }),
  confirmProof: endpoint({
    path: '/operator/offline/confirm',
    body: operatorBodies.proofConfirm,
    data: z.object({ outcome: z.string(), orderNo: z.string() }),
  }),
  rejectProof: endpoint({
    path: '/operator/offline/reject',
    body: operatorBodies.proofReject,
    data: nullData,
  }),
  issueInvoice: endpoint({
    path: '/operator/invoices/issue',
    body: operatorBodies.invoiceIssue,
    data: z.object({ invoiceId: z.string(), invoiceNo: z.string(), status: z.enum(['requested', 'issued']) }),
  }),
  updateGoods: endpoint({
    path: '/operator/goods/update',
    body: operatorBodies.goodsUpdate,
    data: goodsSchema,
  }),
} as const;

/**
 * What the shared token may do: each endpoint of the operator API needs one scope, and the token
 * has only the scopes listed in OPERATOR_TOKEN_SCOPES (none by default). Least privilege: give an
 * automation the scopes of the calls it makes, nothing else.
 */
export const OPERATOR_SCOPES = [
  'orders:read',
  'orders:refund',
  'orders:ship',
  'offline:read',
  'offline:decide',
  'invoices:issue',
  'goods:update',
] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** The scope each operator endpoint needs (every endpoint declares one). */
export const OPERATOR_ENDPOINT_SCOPES: Record<keyof typeof operatorApi, OperatorScope> = {
  orderDetail: 'orders:read',
  flaggedPayments: 'orders:read',
  refund: 'orders:refund',
  ship: 'orders:ship',
  proofs: 'offline:read',
  proofFile: 'offline:read',
  confirmProof: 'offline:decide',
  rejectProof: 'offline:decide',
  issueInvoice: 'invoices:issue',
  updateGoods: 'goods:update',
};
