import { z } from 'zod';
import { PHONE_PATTERN } from '../constants.ts';
import {
  CITATION_OPTIONS,
  COMMISSION_FILE_RULES,
  COMMISSION_SERVICES,
  DELIVERY_OPTIONS,
  EVALUATION_FORMS,
  COMMISSION_RULES as R,
  RESULT_TYPES,
  SEARCH_DATABASES,
  SEARCH_PURPOSES,
  TECH_SEARCH_PURPOSES,
  TECH_SEARCH_SCOPES,
  URGENCY_OPTIONS,
} from './commission-rules.ts';
import {
  RANGE_ORDER_ERROR,
  rangeInOrder,
  tableRangeFields,
  tableSearch,
  tableSort,
} from './console-table.ts';
import { endpoint, isoDate } from './endpoint.ts';
import { idSchema, intInSchema, pageOf } from './orders.ts';

/**
 * The commissioned services (docs/api/commission.md): 检索报告, 科技查新, 文献下载, 科技成果评价 —
 * a form, attachments, a price from goods (or an operator's quote), the shared order and payment,
 * a status timeline and the delivered report; the operators' side under /admin/commission.
 */

const text = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, { error: required }).max(max, { error: tooLong });
const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, { error: tooLong })
    .optional()
    .transform((v) => v ?? '');
const choice = <const T extends readonly [string, ...string[]]>(values: T, required: string) =>
  z.enum(values, { error: required });
const valuesOf = <const T extends readonly { value: string }[]>(options: T) =>
  options.map((o) => o.value) as unknown as readonly [T[number]['value'], ...T[number]['value'][]];

const contact = {
  contactName: text(R.contact.name.max, R.contact.name.required, R.contact.name.tooLong),
  contactPhone: z
    .string({ error: R.contact.phone.required })
    .trim()
    .min(1, { error: R.contact.phone.required })
    .regex(PHONE_PATTERN, { error: R.contact.phone.invalid }),
  unit: optionalText(R.contact.unit.max, R.contact.unit.tooLong),
  email: z
    .string()
    .trim()
    .max(R.contact.email.max, { error: R.contact.email.invalid })
    .optional()
    .transform((v) => v ?? '')
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: R.contact.email.invalid }),
  note: optionalText(R.note.max, R.note.tooLong),
  fileIds: z
    .array(idSchema('附件'), { error: COMMISSION_FILE_RULES.unknown })
    .max(COMMISSION_FILE_RULES.maxFiles, { error: COMMISSION_FILE_RULES.tooMany })
    .default([]),
};

/** YYYY-MM-DD; that it lies after today (China time) is checked by the server's clock. */
const deadline = z
  .string({ error: R.deadline.required })
  .trim()
  .min(1, { error: R.deadline.required })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: R.deadline.invalid })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), { error: R.deadline.invalid });

const delivery = {
  urgency: choice(valuesOf(URGENCY_OPTIONS), R.urgency.required),
  deadline,
  delivery: choice(valuesOf(DELIVERY_OPTIONS), R.delivery.required),
  copies: z.coerce
    .number({ error: R.copies.invalid })
    .int({ error: R.copies.invalid })
    .min(R.copies.min, { error: R.copies.invalid })
    .max(R.copies.max, { error: R.copies.invalid })
    .default(1),
};

const list = (item: z.ZodType<string>, min: number, max: number, required: string, tooMany: string) =>
  z
    .array(item, { error: required })
    .transform((items) => items.filter((s) => s !== ''))
    .pipe(z.array(z.string()).min(min, { error: required }).max(max, { error: tooMany }));
const listItem = (max: number, tooLong: string) => z.string().trim().max(max, { error: tooLong });

const S = R.searchReport;
export const searchReportFormSchema = z.object({
  service: z.literal('search_report'),
  papers: z
    .array(
      z.object({
        title: text(S.paperTitle.max, S.paperTitle.required, S.paperTitle.tooLong),
        authors: text(S.paperAuthors.max, S.paperAuthors.required, S.paperAuthors.tooLong),
        source: optionalText(S.paperSource.max, S.paperSource.tooLong),
        year: z.coerce
          .number({ error: S.paperYear.invalid })
          .int({ error: S.paperYear.invalid })
          .min(S.paperYear.min, { error: S.paperYear.invalid })
          .max(S.paperYear.max, { error: S.paperYear.invalid })
          .optional(),
      }),
      { error: S.papers.required },
    )
    .min(S.papers.min, { error: S.papers.required })
    .max(S.papers.max, { error: S.papers.tooMany }),
  databases: z
    .array(choice(valuesOf(SEARCH_DATABASES), S.databases.required), { error: S.databases.required })
    .min(1, { error: S.databases.required })
    .transform((v) => [...new Set(v)]),
  citations: choice(valuesOf(CITATION_OPTIONS), S.citations.required),
  purpose: choice(SEARCH_PURPOSES, S.purpose.required),
  ...delivery,
  ...contact,
});

const T = R.techSearch;
export const techSearchFormSchema = z.object({
  service: z.literal('tech_search'),
  nameZh: text(T.nameZh.max, T.nameZh.required, T.nameZh.tooLong),
  nameEn: text(T.nameEn.max, T.nameEn.required, T.nameEn.tooLong),
  purpose: choice(TECH_SEARCH_PURPOSES, T.purpose.required),
  scope: choice(valuesOf(TECH_SEARCH_SCOPES), T.scope.required),
  points: list(
    listItem(T.points.itemMax, T.points.tooLong),
    T.points.min,
    T.points.max,
    T.points.required,
    T.points.tooMany,
  ),
  summary: z
    .string({ error: T.summary.required })
    .trim()
    .min(1, { error: T.summary.required })
    .min(T.summary.min, { error: T.summary.tooShort })
    .max(T.summary.max, { error: T.summary.tooLong }),
  keywordsZh: list(
    listItem(T.keywords.itemMax, T.keywords.tooLong),
    T.keywords.min,
    T.keywords.max,
    T.keywords.requiredZh,
    T.keywords.tooMany,
  ),
  keywordsEn: list(
    listItem(T.keywords.itemMax, T.keywords.tooLong),
    T.keywords.min,
    T.keywords.max,
    T.keywords.requiredEn,
    T.keywords.tooMany,
  ),
  references: optionalText(T.references.max, T.references.tooLong),
  ...delivery,
  ...contact,
});

const D = R.docDelivery;
export const docDeliveryFormSchema = z.object({
  service: z.literal('doc_delivery'),
  items: list(
    listItem(D.citation.max, D.citation.tooLong),
    D.items.min,
    D.items.max,
    D.items.required,
    D.items.tooMany,
  ),
  personalUse: z.literal(true, { error: D.personalUse.required }),
  ...contact,
});

const E = R.techEvaluation;
export const techEvaluationFormSchema = z.object({
  service: z.literal('tech_evaluation'),
  name: text(E.name.max, E.name.required, E.name.tooLong),
  type: choice(RESULT_TYPES, E.type.required),
  units: text(E.units.max, E.units.required, E.units.tooLong),
  form: choice(EVALUATION_FORMS, E.form.required),
  summary: z
    .string({ error: E.summary.required })
    .trim()
    .min(1, { error: E.summary.required })
    .min(E.summary.min, { error: E.summary.tooShort })
    .max(E.summary.max, { error: E.summary.tooLong }),
  ...delivery,
  ...contact,
  fileIds: z
    .array(idSchema('附件'), { error: E.materials.required })
    .min(1, { error: E.materials.required })
    .max(COMMISSION_FILE_RULES.maxFiles, { error: COMMISSION_FILE_RULES.tooMany }),
});

export const commissionFormSchema = z.discriminatedUnion(
  'service',
  [searchReportFormSchema, techSearchFormSchema, docDeliveryFormSchema, techEvaluationFormSchema],
  { error: '请选择委托的服务' },
);
export type CommissionForm = z.input<typeof commissionFormSchema>;
export type CommissionFormData = z.output<typeof commissionFormSchema>;

const serviceSchema = z.enum(COMMISSION_SERVICES, { error: '请选择委托的服务' });
const commissionIdBody = z.object({ commissionId: idSchema('委托') });

/** A count of the estimate, bounded as the form bounds it, with the form's message. */
const estimateCount = (label: string, max: number, tooMany: string) =>
  z.coerce
    .number({ error: `${label}须为数字` })
    .int({ error: `${label}须为整数` })
    .min(0, { error: `${label}不能小于0` })
    .max(max, { error: tooMany })
    .default(0);

/** What the estimate needs: counts and choices, not the whole form — within the form's limits. */
export const estimateBody = z.object({
  service: serviceSchema,
  papers: estimateCount('论文篇数', R.searchReport.papers.max, R.searchReport.papers.tooMany),
  databases: estimateCount(
    '数据库个数',
    SEARCH_DATABASES.length,
    `最多选择 ${SEARCH_DATABASES.length} 个检索数据库`,
  ),
  items: estimateCount('文献篇数', R.docDelivery.items.max, R.docDelivery.items.tooMany),
  scope: z.enum(valuesOf(TECH_SEARCH_SCOPES)).optional(),
  urgency: z.enum(valuesOf(URGENCY_OPTIONS)).optional(),
});

export const estimateSchema = z.object({
  service: serviceSchema,
  pricing: z.enum(['per_item', 'fixed', 'quote']),
  goodsId: z.string(),
  goodsName: z.string(),
  unitPrice: z.string(),
  unit: z.string(),
  quantity: z.number().nullable(),
  amountFen: z.number().nullable(),
  amount: z.string().nullable(),
  /** How the price is made, in Chinese (e.g. 3 篇 × 2 个数据库 × ¥15.00). */
  explain: z.string(),
  /** Calendar days from payment to delivery, from the goods (null: no promise, e.g. a quote). */
  turnaroundDays: z.number().nullable(),
  /** The 预计完成日期 (YYYY-MM-DD, China time) a payment today would record. */
  dueDate: z.string().nullable(),
});
export type CommissionEstimate = z.output<typeof estimateSchema>;

export const commissionFileSchema = z.object({
  fileId: z.string(),
  kind: z.enum(['attachment', 'report']),
  fileName: z.string(),
  bytes: z.number(),
  createdAt: isoDate,
});
export type CommissionFile = z.output<typeof commissionFileSchema>;

export const COMMISSION_STATUSES = [
  'quoting',
  'pending_payment',
  'processing',
  'done',
  'cancelled',
  'refunded',
] as const;

export const timelineStepSchema = z.object({
  key: z.string(),
  label: z.string(),
  at: isoDate.nullable(),
  state: z.enum(['done', 'current', 'waiting']),
  note: z.string().nullable(),
});

export const commissionSchema = z.object({
  commissionId: z.string(),
  commissionNo: z.string(),
  service: serviceSchema,
  serviceName: z.string(),
  reportName: z.string(),
  title: z.string(),
  status: z.enum(COMMISSION_STATUSES),
  statusText: z.string(),
  pricing: z.enum(['per_item', 'fixed', 'quote']),
  quantity: z.number(),
  unit: z.string(),
  amountFen: z.number().nullable(),
  amount: z.string().nullable(),
  quoteNote: z.string().nullable(),
  orderId: z.string().nullable(),
  orderNo: z.string().nullable(),
  canPay: z.boolean(),
  canCancel: z.boolean(),
  deadline: z.string().nullable(),
  /** 预计完成日期, recorded at payment from the goods' turnaround days (null: none yet). */
  dueDate: z.string().nullable(),
  /** 处理中 past its due date (已超期). */
  overdue: z.boolean(),
  delivery: z.string(),
  copies: z.number(),
  timeline: z.array(timelineStepSchema),
  files: z.array(commissionFileSchema),
  reports: z.array(commissionFileSchema),
  createdAt: isoDate,
});
export type Commission = z.output<typeof commissionSchema>;

export const commissionDetailSchema = commissionSchema.extend({
  form: z.record(z.string(), z.unknown()),
});
export type CommissionDetail = z.output<typeof commissionDetailSchema>;

export const consoleCommissionSchema = commissionSchema.extend({
  userPhone: z.string().nullable(),
  contactName: z.string(),
  contactPhone: z.string(),
});
export type ConsoleCommission = z.output<typeof consoleCommissionSchema>;
export const consoleCommissionDetailSchema = consoleCommissionSchema.extend({
  form: z.record(z.string(), z.unknown()),
  /** The e-mail notices (报价待支付 / 已完成) and how each went, oldest first. */
  notices: z.array(
    z.object({
      kindText: z.string(),
      email: z.string(),
      status: z.enum(['pending', 'sending', 'sent', 'failed']),
      statusText: z.string(),
      sentAt: isoDate.nullable(),
    }),
  ),
});
export type ConsoleCommissionDetail = z.output<typeof consoleCommissionDetailSchema>;

/**
 * /commission/services: whether each service takes requests now. A service whose goods are unlisted
 * (下架 in the console) is paused: its page and cards say 暂停受理 instead of the form and price.
 */
export const commissionServicesSchema = z.array(z.object({ service: serviceSchema, available: z.boolean() }));
export type CommissionServiceState = z.output<typeof commissionServicesSchema>[number];

export const commissionApi = {
  estimate: endpoint({ path: '/commission/estimate', body: estimateBody, data: estimateSchema }),
  services: endpoint({ path: '/commission/services', body: z.object({}), data: commissionServicesSchema }),
  /** multipart: the `file` (a document). */
  uploadFile: endpoint({ path: '/commission/uploadFile', data: commissionFileSchema }),
  submit: endpoint({ path: '/commission/submit', body: commissionFormSchema, data: commissionSchema }),
  list: endpoint({
    path: '/commission/list',
    body: z.object({
      service: serviceSchema.optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 50, 10, '每页条数'),
    }),
    data: pageOf(commissionSchema),
  }),
  detail: endpoint({ path: '/commission/detail', body: commissionIdBody, data: commissionDetailSchema }),
  cancel: endpoint({ path: '/commission/cancel', body: commissionIdBody, data: commissionSchema }),
  /** The delivered report (or another of the commission's files): a download. */
  download: endpoint({
    path: '/commission/download',
    body: z.object({ commissionId: idSchema('委托'), fileId: idSchema('文件') }),
    data: 'file',
  }),
} as const;

export const COMMISSION_SORTS = ['due', 'newest', 'oldest'] as const;

/** The operators' queue filter: the list's and the CSV export's. */
const consoleCommissionFilter = z.object({
  status: z.enum(COMMISSION_STATUSES, { error: '委托状态不正确' }).optional(),
  service: serviceSchema.optional(),
  /** 委托编号, the contact's or the account's phone, or the contact's name (part of any). */
  q: tableSearch,
  ...tableRangeFields,
  /** due: the earliest 预计完成日期 first (the queue's order); newest / oldest by submission. */
  sort: tableSort(COMMISSION_SORTS),
});
export type ConsoleCommissionFilterBody = z.input<typeof consoleCommissionFilter>;

/** The operators' side (staff session cookie; roles fulfilment and admin; every call audited). */
export const consoleCommissionApi = {
  list: endpoint({
    path: '/admin/commission/list',
    body: consoleCommissionFilter
      .extend({ page: intInSchema(1, 10_000, 1, '页码'), pageSize: intInSchema(1, 50, 20, '每页条数') })
      .refine(rangeInOrder, { error: RANGE_ORDER_ERROR }),
    /** `counts`: each status's commissions under the same search, service and dates (the tabs' badges). */
    data: pageOf(consoleCommissionSchema).extend({
      counts: z.record(z.enum(COMMISSION_STATUSES), z.number()),
    }),
  }),
  detail: endpoint({
    path: '/admin/commission/detail',
    body: commissionIdBody,
    data: consoleCommissionDetailSchema,
  }),
  quote: endpoint({
    path: '/admin/commission/quote',
    body: z.object({
      commissionId: idSchema('委托'),
      amount: z.coerce
        .number({ error: '请填写报价金额' })
        .int({ error: '报价金额须为整数元' })
        .min(1, { error: '报价金额不能少于 1 元' })
        .max(200_000, { error: '报价金额不能超过 200000 元' }),
      note: optionalText(200, '报价说明不能超过200个字'),
    }),
    data: consoleCommissionSchema,
  }),
  /** multipart: `commissionId` and the report `file` (a document). */
  uploadReport: endpoint({ path: '/admin/commission/uploadReport', data: consoleCommissionSchema }),
  complete: endpoint({
    path: '/admin/commission/complete',
    body: commissionIdBody,
    data: consoleCommissionSchema,
  }),
  /** The list's rows under the same filter as a CSV file (UTF-8 with BOM), at most CSV_EXPORT_MAX_ROWS. */
  export: endpoint({
    path: '/admin/commission/export',
    body: consoleCommissionFilter.refine(rangeInOrder, { error: RANGE_ORDER_ERROR }),
    data: 'file',
  }),
  download: endpoint({
    path: '/admin/commission/download',
    body: z.object({ commissionId: idSchema('委托'), fileId: idSchema('文件') }),
    data: 'file',
  }),
} as const;
