import { z } from 'zod';
import { TEXTS } from './check.texts.ts';

/** Request bodies of the check API (docs/api/check.md), each rule with its Chinese message. */

const orderId = z
  .string({ error: '订单不能为空' })
  .trim()
  .min(1, { error: '订单不能为空' })
  .max(64, { error: '订单格式错误' });

export const orderIdBody = z.object({ orderId });

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

export const uploadFields = z.object({
  title: z
    .string({ error: TEXTS.titleRequired })
    .trim()
    .min(1, { error: TEXTS.titleRequired })
    .max(200, { error: TEXTS.titleTooLong }),
  author: z
    .string({ error: TEXTS.authorRequired })
    .trim()
    .min(1, { error: TEXTS.authorRequired })
    .max(50, { error: TEXTS.authorTooLong }),
  goodsId: z.string({ error: TEXTS.goodsRequired }).trim().min(1, { error: TEXTS.goodsRequired }).max(40),
  /** The user's opt-in: add the paper to the comparison library after its check. Default false. */
  addToLibrary: flag.default(false),
});

export const downloadBody = z
  .object({
    orderId,
    /** pdf (检测报告), marked (全文标明引文 PDF), html (standalone report), zip (all three). `kind` is accepted too. */
    format: z
      .enum(['pdf', 'marked', 'html', 'zip'], { error: '下载格式须为 pdf、marked、html 或 zip' })
      .optional(),
    kind: z
      .enum(['pdf', 'marked', 'html', 'zip'], { error: '下载格式须为 pdf、marked、html 或 zip' })
      .optional(),
  })
  .transform((b) => ({ orderId: b.orderId, format: b.format ?? b.kind ?? 'pdf' }));

const intIn = (min: number, max: number, fallback: number, label: string) =>
  z.coerce
    .number({ error: `${label}须为数字` })
    .int({ error: `${label}须为整数` })
    .min(min, { error: `${label}不能小于${min}` })
    .max(max, { error: `${label}不能大于${max}` })
    .default(fallback);

export const pageBody = z.object({
  page: intIn(1, 10_000, 1, '页码'),
  pageSize: intIn(1, 50, 10, '每页条数'),
});

export const verifyBody = z.object({
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
});

export const payBody = z.object({
  orderId,
  payType: z.enum(['wx', 'ali'], { error: '请选择支付方式（微信或支付宝）' }),
});
