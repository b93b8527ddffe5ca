import { z } from 'zod';

/** Request bodies of /weightReduction/* (docs/api/reduction.md). */

const reductionId = z
  .string({ error: '缺少降重记录编号' })
  .trim()
  .regex(/^[0-9a-f-]{36}$/i, { error: '降重记录不存在' });
export const kind = z
  .enum(['reduction', 'aigc_reduction'], { error: '请选择降重或降AIGC' })
  .default('reduction');

export const reductionIdBody = z.object({ reductionId });

export const priceBody = z.object({ chars: z.coerce.number().int().min(0).max(10_000_000).optional() });

export const submitContentBody = z.object({
  kind,
  title: z.string().trim().max(200, { error: '标题不能超过200字' }).optional(),
  // The goods' limit (with its message) is checked by the service; this only bounds the request.
  text: z.string({ error: '请输入需要改写的文字' }).max(2_000_000, { error: '文字过长，请分段提交' }),
});

/** The check's order id as /freeCheck/* names it. */
export const submitReportBody = z.object({
  kind,
  orderId: z
    .string({ error: '请选择查重报告' })
    .trim()
    .regex(/^[0-9a-f-]{36}$/i, { error: '查重报告不存在或不属于当前账号' }),
});

export const orderPaymentBody = z.object({
  reductionId,
  payType: z.enum(['wx', 'ali'], { error: '请选择支付方式（微信或支付宝）' }),
});

/** The text fields of /submitFile (multipart, beside the file). */
export const submitFileFields = z.object({
  kind,
  title: z.string().trim().max(200, { error: '标题不能超过200字' }).optional(),
});
