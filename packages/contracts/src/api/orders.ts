import { z } from 'zod';
import { PHONE_PATTERN } from '../constants.ts';
import { isValidCreditCode } from '../credit-code.ts';
import { endpoint, isoDate, nullData } from './endpoint.ts';
import { ADDRESS_RULES, INVOICE_RULES } from './form-rules.ts';

/**
 * The orders API (docs/api/orders.md): goods, each service's pay pair, the account area's orders,
 * payment records, offline transfers, invoices, addresses and the operator API.
 */

// --- shared values ------------------------------------------------------------------------------

/** Every service an order can be for. */
export const SERVICE_TYPES = [
  'check',
  'reduction',
  'aigc_reduction',
  'ai_writing',
  'search_report',
  'tech_search',
  'doc_delivery',
  'tech_evaluation',
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'processing',
  'done',
  'cancelled',
  'expired',
  'refunded',
] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.output<typeof orderStatusSchema>;

/** A QR payment channel. */
export const payTypeSchema = z.enum(['wx', 'ali'], { error: '请选择支付方式（微信或支付宝）' });
export type PayType = z.output<typeof payTypeSchema>;
/** What the student picks in the payment dialog: a QR channel or a bank transfer. */
export const payMethodSchema = z.enum(['wx', 'ali', 'offline']);
export type PayMethod = z.output<typeof payMethodSchema>;

/** The spec's orderPayStatus: 1 once the order is paid. */
export const payStatusFlagSchema = z.number().pipe(z.union([z.literal(0), z.literal(1)]));

/** The tabs of /user/order (spec §2). */
export type OrderTab = 'check' | 'reduction' | 'write' | 'commission';

// --- request pieces -------------------------------------------------------------------------------

export const idSchema = (label: string) =>
  z
    .string({ error: `${label}不能为空` })
    .trim()
    .min(1, { error: `${label}不能为空` })
    .max(64, { error: `${label}格式错误` });

/** Numbers may arrive as strings from forms and query strings. */
export const intInSchema = (min: number, max: number, fallback: number, label: string) =>
  z.coerce
    .number({ error: `${label}须为数字` })
    .int({ error: `${label}须为整数` })
    .min(min, { error: `${label}不能小于${min}` })
    .max(max, { error: `${label}不能大于${max}` })
    .default(fallback);

const flag = z.preprocess(
  (value) =>
    value === 1 || value === '1' || value === 'true'
      ? true
      : value === 0 || value === '0' || value === 'false'
        ? false
        : value,
  z.boolean({ error: '参数须为布尔值' }),
);

export const orderIdBody = z.object({ orderId: idSchema('订单') });
export const payBody = z.object({ orderId: idSchema('订单'), payType: payTypeSchema });
export const pageBody = z.object({
  page: intInSchema(1, 10_000, 1, '页码'),
  pageSize: intInSchema(1, 50, 10, '每页条数'),
});

/** Tab names of /user/order (check, reduction, write, commission) and the service types themselves. */
const LIST_ALIASES: Record<string, readonly ServiceType[]> = {
  check: ['check'],
  reduction: ['reduction', 'aigc_reduction'],
  write: ['ai_writing'],
  commission: ['search_report', 'tech_search', 'doc_delivery', 'tech_evaluation'],
  ...Object.fromEntries(SERVICE_TYPES.map((t) => [t, [t]])),
};

export const requiredText = (max: number, required: string, tooLong?: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, tooLong ? { error: tooLong } : undefined);

export const addressInputSchema = z.object({
  id: idSchema('地址').optional(),
  name: requiredText(ADDRESS_RULES.name.max, ADDRESS_RULES.name.required, ADDRESS_RULES.name.tooLong),
  phone: z
    .string({ error: ADDRESS_RULES.phone.required })
    .trim()
    .regex(PHONE_PATTERN, { error: ADDRESS_RULES.phone.invalid }),
  province: requiredText(30, ADDRESS_RULES.province.required),
  city: requiredText(30, ADDRESS_RULES.city.required),
  district: requiredText(30, ADDRESS_RULES.district.required),
  detail: z
    .string({ error: ADDRESS_RULES.detail.required })
    .trim()
    .min(ADDRESS_RULES.detail.min, { error: ADDRESS_RULES.detail.required })
    .max(ADDRESS_RULES.detail.max, { error: ADDRESS_RULES.detail.tooLong }),
  isDefault: flag.optional(),
});
export type AddressInput = z.input<typeof addressInputSchema>;

export const invoiceRequestSchema = z
  .object({
    orderIds: z
      .array(idSchema('订单'), { error: INVOICE_RULES.orders.required })
      .min(1, { error: INVOICE_RULES.orders.required })
      .max(INVOICE_RULES.orders.max, { error: INVOICE_RULES.orders.tooMany }),
    titleType: z.enum(['personal', 'company'], { error: INVOICE_RULES.titleType.required }),
    title: requiredText(INVOICE_RULES.title.max, INVOICE_RULES.title.required, INVOICE_RULES.title.tooLong),
    taxpayerId: z
      .string()
      .trim()
      .toUpperCase()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || (!/\s/.test(v) && isValidCreditCode(v)), {
        // spaces inside the code are refused (the web form removes them before sending)
        error: INVOICE_RULES.taxpayerId.invalid,
      }),
    email: z
      .string({ error: INVOICE_RULES.email.required })
      .trim()
      .min(1, { error: INVOICE_RULES.email.required })
      .max(INVOICE_RULES.email.max, { error: INVOICE_RULES.email.tooLong })
      .pipe(z.email({ error: INVOICE_RULES.email.invalid })),
  })
  .refine((b) => b.titleType === 'personal' || b.taxpayerId !== undefined, {
    error: INVOICE_RULES.taxpayerId.requiredForCompany,
    path: ['taxpayerId'],
  });
export type InvoiceRequest = z.input<typeof invoiceRequestSchema>;

// --- response pieces ------------------------------------------------------------------------------

const money = { amountFen: z.number(), amount: z.string() };

export const goodsSchema = z.object({
  goodsId: z.string(),
  serviceType: z.string(),
  name: z.string(),
  description: z.string(),
  unitPriceFen: z.number(),
  /** Yuan per unitSize, e.g. "2.00". */
  unitPrice: z.string(),
  unitSize: z.number(),
  unit: z.string(),
  minQuantity: z.number(),
  maxQuantity: z.number(),
  freeRule: z.record(z.string(), z.unknown()).nullable(),
});
export type Goods = z.output<typeof goodsSchema>;

/** The answer of a service's `freeCheckQrPayCode` (and `/order/pay`). */
export const payQrSchema = z.object({
  /** Drawn as a QR code locally; in the sandbox a local 模拟支付 page. */
  codeUrl: z.string(),
  orderNo: z.string(),
  /** The platform's order number (orderNo, or orderNo-2… after coming back to a channel). */
  outTradeNo: z.string(),
  payType: payTypeSchema,
  ...money,
  /** The code (and the order's payment time) ends then. */
  expireAt: isoDate,
});
export type PayQr = z.output<typeof payQrSchema>;

/** The answer of a service's `orderPayStatus` (and `/order/payStatus`). */
export const payStatusSchema = z.object({
  payStatus: payStatusFlagSchema,
  status: orderStatusSchema.nullable(),
  orderNo: z.string(),
  payChannel: payMethodSchema.nullable(),
  paidAt: isoDate.nullable(),
  expireAt: isoDate,
  /** A transfer proof waits for an operator (待确认). */
  offlinePending: z.boolean(),
});
export type PayStatus = z.output<typeof payStatusSchema>;

export const proofSchema = z.object({
  proofId: z.string(),
  status: z.enum(['pending', 'confirmed', 'rejected']),
  statusText: z.string(),
  reviewNote: z.string().nullable(),
  createdAt: isoDate,
  reviewedAt: isoDate.nullable(),
});
export type Proof = z.output<typeof proofSchema>;

export const offlineInfoSchema = z.object({
  enabled: z.boolean(),
  bankName: z.string(),
  accountName: z.string(),
  accountNo: z.string(),
  note: z.string(),
  proofMaxBytes: z.number(),
  /** MIME types, e.g. image/png, application/pdf. */
  proofTypes: z.array(z.string()),
});
export type OfflineInfo = z.output<typeof offlineInfoSchema>;

export const orderSchema = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  serviceType: z.enum(SERVICE_TYPES),
  serviceTypeText: z.string(),
  goodsId: z.string(),
  goodsName: z.string(),
  quantity: z.number(),
  unit: z.string(),
  unitSize: z.number(),
  unitPriceFen: z.number(),
  unitPrice: z.string(),
  ...money,
  refundedFen: z.number(),
  refundedAmount: z.string(),
  status: orderStatusSchema,
  statusText: z.string(),
  /** The service could not be delivered: the payment is (being) refunded in full automatically. */
  autoRefund: z.boolean(),
  /** That automatic refund was refused by the payment platform: an operator takes over. */
  autoRefundFailed: z.boolean(),
  payStatus: payStatusFlagSchema,
  payChannel: payMethodSchema.nullable(),
  payChannelText: z.string().nullable(),
  createdAt: isoDate,
  paidAt: isoDate.nullable(),
  expireAt: isoDate,
  serviceRef: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
  /** An order sold with add-ons (a check with AIGC detection): each part's name and amount; [] otherwise. */
  parts: z.array(z.object({ goodsId: z.string(), goodsName: z.string(), ...money })).optional(),
  /** A transfer proof waits for an operator: 待确认, no 去支付. */
  offlinePending: z.boolean().optional(),
  offlinePendingText: z.string().nullable().optional(),
  canPay: z.boolean(),
  canCancel: z.boolean(),
  canDelete: z.boolean(),
});
export type Order = z.output<typeof orderSchema>;

export const deliverySchema = z.object({
  recipientName: z.string(),
  phone: z.string(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  detail: z.string(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  shippedAt: isoDate.nullable(),
  statusText: z.string(),
});
export type Delivery = z.output<typeof deliverySchema>;

export const orderDetailSchema = orderSchema.extend({
  history: z.array(z.object({ status: z.string(), statusText: z.string(), reason: z.string(), at: isoDate })),
  payments: z.array(
    z.object({
      time: isoDate,
      method: z.string(),
      methodText: z.string(),
      ...money,
      status: z.enum(['accepted', 'late', 'duplicate', 'amount_mismatch']),
      statusText: z.string(),
    }),
  ),
  refunds: z.array(
    z.object({
      refundId: z.string(),
      refundNo: z.string(),
      ...money,
      reason: z.string(),
      status: z.enum(['pending', 'processing', 'succeeded', 'failed']),
      statusText: z.string(),
      createdAt: isoDate,
      finishedAt: isoDate.nullable(),
    }),
  ),
  offlineProofs: z.array(proofSchema),
  delivery: deliverySchema.nullable(),
  invoice: z
    .object({ invoiceId: z.string(), invoiceNo: z.string(), status: z.enum(['requested', 'issued']) })
    .nullable(),
});
export type OrderDetail = z.output<typeof orderDetailSchema>;

export const paymentRecordSchema = z.object({
  paymentId: z.string(),
  time: isoDate,
  method: payMethodSchema,
  methodText: z.string(),
  ...money,
  orderNo: z.string(),
  orderId: z.string(),
  goodsName: z.string(),
  status: z.string(),
  statusText: z.string(),
  refundedFen: z.number(),
  refundedAmount: z.string(),
});
export type PaymentRecord = z.output<typeof paymentRecordSchema>;

export const invoiceableOrderSchema = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  goodsName: z.string(),
  ...money,
  paidAt: isoDate.nullable(),
});
export type InvoiceableOrder = z.output<typeof invoiceableOrderSchema>;

export type InvoiceTitleType = 'personal' | 'company';

export const invoiceSchema = z.object({
  invoiceId: z.string(),
  invoiceNo: z.string(),
  titleType: z.enum(['personal', 'company']),
  title: z.string(),
  taxpayerId: z.string().nullable(),
  /** Null on invoices requested before e-mail was asked for. */
  email: z.string().nullable(),
  ...money,
  status: z.enum(['requested', 'issued']),
  statusText: z.string(),
  /** 已红冲 with the red invoice's PDF (红字发票) attached: downloadable with `red: true`. */
  hasReversalPdf: z.boolean(),
  createdAt: isoDate,
  issuedAt: isoDate.nullable(),
  emailedAt: isoDate.nullable(),
  orders: z.array(z.object({ orderId: z.string(), orderNo: z.string(), goodsName: z.string(), ...money })),
});
export type Invoice = z.output<typeof invoiceSchema>;

export const addressSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  detail: z.string(),
  isDefault: z.boolean(),
  updatedAt: isoDate,
});
export type Address = z.output<typeof addressSchema>;

export interface CityNode {
  code: string;
  name: string;
  children?: CityNode[];
}
export const cityNodeSchema: z.ZodType<CityNode> = z.lazy(() =>
  z.object({ code: z.string(), name: z.string(), children: z.array(cityNodeSchema).optional() }),
);

/** A page of a list. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number() });
export interface Page<T> {
  list: T[];
  total: number;
}

// --- endpoints ----------------------------------------------------------------------------------

/** The pay pair every service has (spec §7: `<service>/freeCheckQrPayCode`, `<service>/orderPayStatus`). */
export const payEndpointsOf = (prefix: string) =>
  ({
    qrPayCode: endpoint({ path: `${prefix}/freeCheckQrPayCode`, body: payBody, data: payQrSchema }),
    payStatus: endpoint({ path: `${prefix}/orderPayStatus`, body: orderIdBody, data: payStatusSchema }),
  }) as const;

export const ordersApi = {
  goodsList: endpoint({
    path: '/goods/list',
    body: z.object({ serviceType: z.enum(SERVICE_TYPES, { error: '服务类型不正确' }).optional() }),
    data: z.array(goodsSchema),
  }),
  orderPay: endpoint({ path: '/order/pay', body: payBody, data: payQrSchema }),
  orderPayStatus: endpoint({ path: '/order/payStatus', body: orderIdBody, data: payStatusSchema }),
  orderList: endpoint({
    path: '/order/list',
    body: z.object({
      serviceType: z
        .string()
        .trim()
        .refine((v) => v === '' || v in LIST_ALIASES, { error: '服务类型不正确' })
        .transform((v) => (v === '' ? undefined : LIST_ALIASES[v]))
        .optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 50, 10, '每页条数'),
    }),
    data: pageOf(orderSchema),
  }),
  orderDetail: endpoint({ path: '/order/detail', body: orderIdBody, data: orderDetailSchema }),
  orderCancel: endpoint({ path: '/order/cancel', body: orderIdBody, data: nullData }),
  orderDelete: endpoint({ path: '/order/delete', body: orderIdBody, data: nullData }),
  orderDelivery: endpoint({
    path: '/order/delivery',
    body: z.object({ orderId: idSchema('订单'), addressId: idSchema('地址') }),
    data: deliverySchema.nullable(),
  }),
  paymentRecords: endpoint({ path: '/payment/records', body: pageBody, data: pageOf(paymentRecordSchema) }),
  offlineInfo: endpoint({ path: '/payment/offline/info', data: offlineInfoSchema }),
  /** multipart: `orderId` and the proof file. */
  offlineProof: endpoint({ path: '/payment/offline/proof', data: proofSchema }),
  invoiceOrders: endpoint({ path: '/invoice/orders', data: z.array(invoiceableOrderSchema) }),
  invoiceCreate: endpoint({ path: '/invoice/create', body: invoiceRequestSchema, data: invoiceSchema }),
  invoiceList: endpoint({ path: '/invoice/list', body: pageBody, data: pageOf(invoiceSchema) }),
  invoiceDownload: endpoint({
    path: '/invoice/download',
    /** `red`: the red invoice (红字发票) of a 红冲 instead of the invoice. */
    body: z.object({ invoiceId: idSchema('发票'), red: z.boolean().optional() }),
    data: 'file',
  }),
  cityList: endpoint({ path: '/websiteUser/cityList', data: z.array(cityNodeSchema) }),
  addressList: endpoint({ path: '/address/list', data: z.array(addressSchema) }),
  addressSave: endpoint({ path: '/address/save', body: addressInputSchema, data: addressSchema }),
  addressDelete: endpoint({
    path: '/address/delete',
    body: z.object({ id: idSchema('地址') }),
    data: nullData,
  }),
  addressSetDefault: endpoint({
    path: '/address/setDefault',
    body: z.object({ id: idSchema('地址') }),
    data: nullData,
  }),
} as const;
