import { isValidCreditCode, PHONE_PATTERN, TAXPAYER_ID_MESSAGE } from '@kyfw/contracts';
import { SERVICE_TYPES, type ServiceType } from '@kyfw/db';
import { z } from 'zod';

/** Request bodies of the orders API (docs/api/orders.md), with the Chinese message of each rule. */

const id = (label: string) =>
  z
    .string({ error: `${label}不能为空` })
    .trim()
    .min(1, { error: `${label}不能为空` })
    .max(64, { error: `${label}格式错误` });

/** Numbers may arrive as strings from forms and query strings. */
const intIn = (min: number, max: number, fallback: number, label: string) =>
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

export const orderIdBody = z.object({ orderId: id('订单') });

export const payBody = z.object({
  orderId: id('订单'),
  payType: z.enum(['wx', 'ali'], { error: '请选择支付方式（微信或支付宝）' }),
});

/** Tab names of /user/order (check, reduction, write) and the service types themselves. */
const LIST_ALIASES: Record<string, readonly ServiceType[]> = {
  check: ['check'],
  reduction: ['reduction', 'aigc_reduction'],
  write: ['ai_writing'],
  ...Object.fromEntries(SERVICE_TYPES.map((t) => [t, [t]])),
};

export const orderListBody = z.object({
  serviceType: z
    .string()
    .trim()
    .refine((v) => v === '' || v in LIST_ALIASES, { error: '服务类型不正确' })
    .transform((v) => (v === '' ? undefined : LIST_ALIASES[v]))
    .optional(),
  page: intIn(1, 10_000, 1, '页码'),
  pageSize: intIn(1, 50, 10, '每页条数'),
});

export const pageBody = z.object({
  page: intIn(1, 10_000, 1, '页码'),
  pageSize: intIn(1, 50, 10, '每页条数'),
});

export const invoiceCreateBody = z
  .object({
    orderIds: z
      .array(id('订单'), { error: '请选择要开票的订单' })
      .min(1, { error: '请选择要开票的订单' })
      .max(50, { error: '一次最多选择50个订单' }),
    titleType: z.enum(['personal', 'company'], { error: '请选择抬头类型（个人或企业）' }),
    title: z
      .string({ error: '请填写发票抬头' })
      .trim()
      .min(1, { error: '请填写发票抬头' })
      .max(100, { error: '发票抬头不能超过100个字' }),
    taxpayerId: z
      .string()
      .trim()
      .toUpperCase()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || (!/\s/.test(v) && isValidCreditCode(v)), {
        // spaces inside the code are refused (the web form removes them before sending)
        error: TAXPAYER_ID_MESSAGE,
      }),
    email: z
      .string({ error: '请填写接收发票的邮箱' })
      .trim()
      .min(1, { error: '请填写接收发票的邮箱' })
      .max(100, { error: '邮箱不能超过100个字符' })
      .pipe(z.email({ error: '请输入正确的邮箱地址' })),
  })
  .refine((b) => b.titleType === 'personal' || b.taxpayerId !== undefined, {
    error: '企业抬头须填写纳税人识别号',
    path: ['taxpayerId'],
  });

export const invoiceIdBody = z.object({ invoiceId: id('发票') });

export const addressSaveBody = z.object({
  id: id('地址').optional(),
  name: z
    .string({ error: '请填写收货人姓名' })
    .trim()
    .min(1, { error: '请填写收货人姓名' })
    .max(20, { error: '收货人姓名不能超过20个字' }),
  phone: z.string({ error: '请输入手机号码' }).trim().regex(PHONE_PATTERN, { error: '请输入正确的手机号码' }),
  province: z.string({ error: '请选择省份' }).trim().min(1, { error: '请选择省份' }).max(30),
  city: z.string({ error: '请选择城市' }).trim().min(1, { error: '请选择城市' }).max(30),
  district: z.string({ error: '请选择区县' }).trim().min(1, { error: '请选择区县' }).max(30),
  detail: z
    .string({ error: '请填写详细地址' })
    .trim()
    .min(2, { error: '请填写详细地址' })
    .max(120, { error: '详细地址不能超过120个字' }),
  isDefault: flag.optional(),
});

export const addressIdBody = z.object({ id: id('地址') });

export const deliveryBody = z.object({ orderId: id('订单'), addressId: id('地址') });

// --- operator API -------------------------------------------------------------------------------

const orderNo = z
  .string({ error: '订单号不能为空' })
  .trim()
  .regex(/^KY[0-9]{20}$/, { error: '订单号格式错误' });

export const operatorOrderBody = z.object({ orderNo });

export const operatorRefundBody = z.object({
  orderNo,
  /** Default: everything not yet refunded. */
  amountFen: z.number().int().positive().optional(),
  reason: z.string({ error: '请填写退款原因' }).trim().min(1, { error: '请填写退款原因' }).max(80),
});

export const operatorProofListBody = z.object({
  status: z.enum(['pending', 'confirmed', 'rejected']).optional(),
});

export const operatorProofConfirmBody = z.object({
  proofId: id('凭证'),
  note: z.string().trim().max(200).optional(),
});

export const operatorProofRejectBody = z.object({
  proofId: id('凭证'),
  reason: z.string({ error: '请填写驳回原因' }).trim().min(1, { error: '请填写驳回原因' }).max(200),
});

export const operatorInvoiceIssueBody = z.object({ invoiceId: id('发票') });

export const operatorShipBody = z.object({
  orderNo,
  carrier: z.string({ error: '请填写快递公司' }).trim().min(1, { error: '请填写快递公司' }).max(30),
  trackingNo: z
    .string({ error: '请填写快递单号' })
    .trim()
    .regex(/^[0-9A-Za-z-]{6,40}$/, { error: '快递单号格式错误' }),
});

export const operatorGoodsUpdateBody = z
  .object({
    goodsId: id('商品'),
    name: z.string().trim().min(1).max(60).optional(),
    description: z.string().trim().max(500).optional(),
    unitPriceFen: z.number().int().positive().max(100_000_000).optional(),
    minQuantity: z.number().int().positive().optional(),
    maxQuantity: z.number().int().positive().optional(),
    active: z.boolean().optional(),
  })
  .refine(
    (b) => b.minQuantity === undefined || b.maxQuantity === undefined || b.minQuantity <= b.maxQuantity,
    {
      error: '最小数量不能大于最大数量',
    },
  );

export const goodsListBody = z.object({
  serviceType: z.enum(SERVICE_TYPES, { error: '服务类型不正确' }).optional(),
});
