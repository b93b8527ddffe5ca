import { z } from 'zod';
import { endpoint, isoDate, nullData, uuidSchema as uuid } from './endpoint.ts';
import {
  deliverySchema,
  idSchema,
  intInSchema,
  invoiceSchema,
  ORDER_STATUSES,
  orderDetailSchema,
  orderSchema,
  pageOf,
  proofSchema,
  SERVICE_TYPES,
} from './orders.ts';

/**
 * The operator console's API under /kyfw/web/v1/admin (docs/api/operator.md): staff log in with
 * username, password and a TOTP code; the session is an httpOnly cookie; every endpoint names the
 * roles that may call it and the server refuses the others (1004, recorded in the audit log).
 */

export const STAFF_ROLE_VALUES = ['admin', 'finance', 'fulfilment', 'editor', 'support'] as const;
export type StaffRoleName = (typeof STAFF_ROLE_VALUES)[number];

export const STAFF_ROLE_TEXTS: Record<StaffRoleName, string> = {
  admin: '管理员',
  finance: '财务',
  fulfilment: '履约',
  editor: '编辑',
  support: '客服',
};

const orderNo = z
  .string({ error: '订单号不能为空' })
  .trim()
  .regex(/^KY[0-9]{20}$/, { error: '订单号格式错误' });

const text = (max: number, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, { error: `不能超过${max}个字` });

export const staffSchema = z.object({
  username: z.string(),
  role: z.enum(STAFF_ROLE_VALUES),
  roleText: z.string(),
  expiresAt: isoDate,
});
export type Staff = z.output<typeof staffSchema>;

const dayRow = z.object({
  date: z.string(),
  orders: z.number(),
  paidOrders: z.number(),
  revenueFen: z.number(),
  checks: z.number(),
  newUsers: z.number(),
});

export const dashboardSchema = z.object({
  days: z.array(dayRow),
  queues: z.object({
    pendingProofs: z.number(),
    flaggedPayments: z.number(),
    failedRefunds: z.number(),
    invoicesToIssue: z.number(),
    queuedJobs: z.number(),
  }),
  failedJobs: z.array(
    z.object({ id: z.string(), name: z.string(), lastError: z.string().nullable(), at: isoDate }),
  ),
});
export type Dashboard = z.output<typeof dashboardSchema>;

export const consoleOrderSchema = orderSchema.extend({ payStatus: z.number(), phone: z.string().nullable() });
export type ConsoleOrder = z.output<typeof consoleOrderSchema>;

const money = { amountFen: z.number(), amount: z.string() };

export const consoleOrderDetailSchema = consoleOrderSchema.extend({
  userId: z.string(),
  history: orderDetailSchema.shape.history,
  payments: z.array(
    z.object({
      paymentId: z.string(),
      channel: z.string(),
      transactionId: z.string(),
      ...money,
      paidAt: isoDate,
      status: z.string(),
      source: z.string(),
      flagged: z.boolean(),
      flagReason: z.string().nullable(),
      refundedFen: z.number(),
    }),
  ),
  refunds: orderDetailSchema.shape.refunds,
});
export type ConsoleOrderDetail = z.output<typeof consoleOrderDetailSchema>;

export const consoleProofSchema = proofSchema.extend({
  orderNo: z.string(),
  ...money,
  mimeType: z.string(),
  sizeBytes: z.number(),
});
export type ConsoleProof = z.output<typeof consoleProofSchema>;

/**
 * An audit row's outcome: ok; refused — a permission refusal (no session, role, scope, token,
 * login); invalid — the input was refused (1001 …); failed — tried and failed.
 */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'invalid', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Who acted, besides the staff roles: the command line and the shared-token operator API. */
export const AUDIT_ROLE_TEXTS: Record<string, string> = { cli: '命令行', automation: '自动化接口' };

export const auditEntrySchema = z.object({
  id: z.string(),
  at: isoDate,
  username: z.string().nullable(),
  role: z.string().nullable(),
  /** The role as the log shows it (管理员 …, 命令行 for the command line, 自动化接口 for the token API). */
  roleText: z.string(),
  action: z.string(),
  actionText: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  before: z.unknown(),
  after: z.unknown(),
  detail: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.output<typeof auditEntrySchema>;

export const staffAccountSchema = z.object({
  staffId: z.string(),
  username: z.string(),
  role: z.enum(STAFF_ROLE_VALUES),
  roleText: z.string(),
  disabled: z.boolean(),
  lockedUntil: isoDate.nullable(),
  createdAt: isoDate,
  createdBy: z.string().nullable(),
  lastLoginAt: isoDate.nullable(),
  recoveryCodesLeft: z.number(),
});
export type StaffAccount = z.output<typeof staffAccountSchema>;

/** Shown once, when an account is created or its two-step verification reset. */
export const staffSecretsSchema = z.object({
  username: z.string(),
  /** Only when the account is created. */
  password: z.string().optional(),
  totpSecret: z.string(),
  otpauthUri: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type StaffSecrets = z.output<typeof staffSecretsSchema>;

const staffId = z.string({ error: '运营账号不存在' }).regex(/^[0-9a-f-]{36}$/i, { error: '运营账号不存在' });
const staffRole = z.enum(STAFF_ROLE_VALUES, { error: '角色不正确' });

export const failedRefundSchema = z.object({
  refundNo: z.string(),
  orderNo: z.string(),
  ...money,
  reason: z.string(),
  /** 'system': an automatic refund (service undeliverable, late or duplicate payment). */
  actor: z.enum(['system', 'operator']),
  channel: z.string(),
  channelText: z.string(),
  phone: z.string().nullable(),
  lastError: z.string().nullable(),
  attempts: z.number(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type FailedRefund = z.output<typeof failedRefundSchema>;

export const INVOICE_TABS = ['requested', 'issued', 'reversal'] as const;

/**
 * How invoices are issued (a site setting, decision 0031): `immediate` the moment the user asks,
 * `review` every request after finance checks 抬头/税号, `company_review` (the default) 企业 titles
 * after review and personal ones at once.
 */
export const INVOICE_ISSUE_MODES = ['company_review', 'review', 'immediate'] as const;
export const invoiceSettingsSchema = z.object({
  issueMode: z.enum(INVOICE_ISSUE_MODES),
  /** Who chose it and when; null: nobody yet (the default applies). */
  updatedBy: z.string().nullable(),
  updatedAt: isoDate.nullable(),
});
export type InvoiceSettings = z.output<typeof invoiceSettingsSchema>;

/** The user's invoice as the console lists it: with the phone and each order's refunds (红冲). */
export const consoleInvoiceSchema = invoiceSchema.omit({ statusText: true, orders: true }).extend({
  phone: z.string().nullable(),
  /** When the 红冲 was recorded, and its note (the red invoice's number); null: none. */
  reversedAt: isoDate.nullable(),
  reversalNote: z.string().nullable(),
  orders: z.array(
    invoiceSchema.shape.orders.element
      .omit({ orderId: true })
      .extend({ refundedFen: z.number(), statusText: z.string() }),
  ),
});
export type ConsoleInvoice = z.output<typeof consoleInvoiceSchema>;

export const consoleDeliverySchema = deliverySchema.extend({
  orderNo: z.string(),
  goodsName: z.string(),
  orderStatusText: z.string(),
  paidAt: isoDate.nullable(),
});
export type ConsoleDelivery = z.output<typeof consoleDeliverySchema>;

export const consoleUserSchema = z.object({
  userId: z.string(),
  phone: z.string().nullable(),
  realName: z.string().nullable(),
  unitName: z.string().nullable(),
  status: z.string(),
  statusText: z.string(),
  wechatBound: z.boolean(),
  createdAt: isoDate,
  lastLoginAt: isoDate,
  orders: z.number(),
  paidFen: z.number(),
});
export type ConsoleUser = z.output<typeof consoleUserSchema>;

export const failedJobSchema = z.object({
  jobId: z.string(),
  name: z.string(),
  attempts: z.number(),
  maxAttempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type FailedJob = z.output<typeof failedJobSchema>;

const usageRow = z.object({
  /** The day (YYYY-MM-DD, China time), the task, or the order number. */
  key: z.string(),
  calls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  costMicroYuan: z.number(),
  /** Yuan, 4 decimals. */
  cost: z.string(),
});
export type LlmUsageRow = z.output<typeof usageRow>;

const refundNo = z
  .string({ error: '退款单号不能为空' })
  .trim()
  .regex(/^RF[0-9]{20}$/, { error: '退款单号格式错误' });

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `不能超过${max}个字` })
    .optional()
    .transform((v) => (v ? v : undefined));

export const consoleApi = {
  login: endpoint({
    path: '/admin/auth/login',
    body: z.object({
      username: text(32, '请输入用户名'),
      password: text(128, '请输入密码'),
      /** The authenticator's 6 digits, or one of the account's recovery codes (xxxxx-xxxxx). */
      totpCode: z
        .string({ error: '请输入动态验证码' })
        .trim()
        .regex(/^[0-9]{6}$|^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, {
          error: '动态验证码为6位数字（或输入一个恢复码）',
        }),
    }),
    data: staffSchema,
  }),
  logout: endpoint({ path: '/admin/auth/logout', data: nullData }),
  me: endpoint({ path: '/admin/auth/me', data: staffSchema }),
  dashboard: endpoint({
    path: '/admin/dashboard',
    body: z.object({ days: intInSchema(1, 90, 14, '天数') }),
    data: dashboardSchema,
  }),
  orderSearch: endpoint({
    path: '/admin/orders/search',
    body: z.object({
      orderNo: optionalText(22),
      phone: z
        .string()
        .trim()
        .regex(/^$|^1[0-9]{10}$/, { error: '手机号格式错误' })
        .optional()
        .transform((v) => (v ? v : undefined)),
      status: z.enum(ORDER_STATUSES, { error: '订单状态不正确' }).optional(),
      serviceType: z.enum(SERVICE_TYPES, { error: '服务类型不正确' }).optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 100, 20, '每页条数'),
    }),
    data: pageOf(consoleOrderSchema),
  }),
  orderDetail: endpoint({
    path: '/admin/orders/detail',
    body: z.object({ orderNo }),
    data: consoleOrderDetailSchema,
  }),
  proofList: endpoint({
    path: '/admin/offline/proofs',
    body: z.object({ status: z.enum(['pending', 'confirmed', 'rejected']).optional() }),
    data: z.array(consoleProofSchema),
  }),
  proofFile: endpoint({
    method: 'GET',
    path: '/admin/offline/proofFile',
    query: z.object({ proofId: z.string().regex(/^[0-9a-f-]{36}$/i, { error: '凭证不存在' }) }),
    data: 'file',
  }),
  proofConfirm: endpoint({
    path: '/admin/offline/confirm',
    body: z.object({ proofId: idSchema('凭证'), note: optionalText(200) }),
    data: z.object({ outcome: z.string(), orderNo: z.string() }),
  }),
  proofReject: endpoint({
    path: '/admin/offline/reject',
    body: z.object({ proofId: idSchema('凭证'), reason: text(200, '请填写驳回原因') }),
    data: nullData,
  }),
  refund: endpoint({
    path: '/admin/refunds/create',
    body: z.object({
      orderNo,
      /**
       * Required: the amount the operator confirmed (the console shows it with the order before
       * sending, decision 0031), so a blank field never refunds everything at once.
       */
      amountFen: z
        .number({ error: '请填写退款金额' })
        .int({ error: '退款金额最多精确到分' })
        .positive({ error: '退款金额须大于0' }),
      reason: text(80, '请填写退款原因'),
    }),
    data: z.object({ refundNo: z.string(), ...money, status: z.string(), statusText: z.string() }),
  }),
  staffList: endpoint({ path: '/admin/staff/list', data: z.array(staffAccountSchema) }),
  staffCreate: endpoint({
    path: '/admin/staff/create',
    body: z.object({
      username: z
        .string({ error: '请输入用户名' })
        .trim()
        .regex(/^[a-z][a-z0-9_.-]{2,31}$/, {
          error: '用户名须以小写字母开头，3–32位小写字母、数字、_ . -',
        }),
      role: staffRole,
    }),
    data: staffSecretsSchema,
  }),
  staffUpdate: endpoint({
    path: '/admin/staff/update',
    body: z
      .object({ staffId, role: staffRole.optional(), disabled: z.boolean().optional() })
      .refine((b) => b.role !== undefined || b.disabled !== undefined, { error: '没有要修改的内容' }),
    data: staffAccountSchema,
  }),
  staffResetTotp: endpoint({
    path: '/admin/staff/resetTotp',
    body: z.object({ staffId }),
    data: staffSecretsSchema,
  }),
  failedRefunds: endpoint({ path: '/admin/refunds/failed', data: z.array(failedRefundSchema) }),
  refundRetry: endpoint({
    path: '/admin/refunds/retry',
    body: z.object({ refundNo }),
    data: orderDetailSchema.shape.refunds.element,
  }),
  refundMarkDone: endpoint({
    path: '/admin/refunds/markDone',
    body: z.object({ refundNo, note: text(200, '请填写退款方式（如已通过银行转账退回）') }),
    data: orderDetailSchema.shape.refunds.element,
  }),
  invoiceList: endpoint({
    path: '/admin/invoices/list',
    body: z.object({ tab: z.enum(INVOICE_TABS, { error: '发票分类不正确' }).optional() }),
    data: z.array(consoleInvoiceSchema),
  }),
  /** 开票方式 (decision 0031): issue at once, or after finance's review (all, or 企业 titles only). */
  invoiceSettings: endpoint({ path: '/admin/invoices/settings', data: invoiceSettingsSchema }),
  invoiceSettingsSave: endpoint({
    path: '/admin/invoices/settings/save',
    body: z.object({ issueMode: z.enum(INVOICE_ISSUE_MODES, { error: '请选择开票方式' }) }),
    data: invoiceSettingsSchema,
  }),
  invoiceGenerate: endpoint({
    path: '/admin/invoices/generate',
    body: z.object({ invoiceId: uuid('发票申请不存在') }),
    data: consoleInvoiceSchema,
  }),
  /** Records the 红冲 of an issued invoice one of whose orders was refunded (finance, admin). */
  invoiceReverse: endpoint({
    path: '/admin/invoices/reverse',
    body: z.object({ invoiceId: uuid('发票申请不存在'), note: text(200, '请填写红字发票号码或说明') }),
    data: consoleInvoiceSchema,
  }),
  /** multipart: `invoiceId` and the invoice's PDF (`file`). */
  invoiceUpload: endpoint({ path: '/admin/invoices/upload', data: consoleInvoiceSchema }),
  invoiceFile: endpoint({
    method: 'GET',
    path: '/admin/invoices/file',
    query: z.object({ invoiceId: z.string().regex(/^[0-9a-f-]{36}$/i, { error: '发票不存在' }) }),
    data: 'file',
  }),
  /** multipart: `invoiceId` and the red invoice's PDF (`file`), on a recorded 红冲 (finance, admin). */
  invoiceReversalUpload: endpoint({ path: '/admin/invoices/reversalUpload', data: consoleInvoiceSchema }),
  invoiceReversalFile: endpoint({
    method: 'GET',
    path: '/admin/invoices/reversalFile',
    query: z.object({ invoiceId: z.string().regex(/^[0-9a-f-]{36}$/i, { error: '发票不存在' }) }),
    data: 'file',
  }),
  deliveryList: endpoint({
    path: '/admin/deliveries/list',
    body: z.object({ shipped: z.boolean().optional() }),
    data: z.array(consoleDeliverySchema),
  }),
  deliveryShip: endpoint({
    path: '/admin/deliveries/ship',
    body: z.object({
      orderNo,
      carrier: text(30, '请填写快递公司'),
      trackingNo: z
        .string({ error: '请填写快递单号' })
        .trim()
        .regex(/^[0-9A-Za-z-]{6,40}$/, { error: '快递单号格式错误' }),
    }),
    data: deliverySchema.nullable(),
  }),
  userSearch: endpoint({
    path: '/admin/users/search',
    body: z.object({
      phone: z
        .string({ error: '请输入手机号' })
        .trim()
        .regex(/^1[0-9]{3,10}$/, { error: '请输入手机号（至少前4位）' }),
    }),
    data: z.array(consoleUserSchema),
  }),
  failedJobs: endpoint({ path: '/admin/jobs/failed', data: z.array(failedJobSchema) }),
  jobRetry: endpoint({
    path: '/admin/jobs/retry',
    body: z.object({ jobId: uuid('任务不存在') }),
    data: z.object({ jobId: z.string(), name: z.string(), lastError: z.string().nullable() }),
  }),
  llmUsage: endpoint({
    path: '/admin/llm/usage',
    body: z.object({ days: intInSchema(1, 90, 14, '天数') }),
    data: z.object({ byDay: z.array(usageRow), byTask: z.array(usageRow), byOrder: z.array(usageRow) }),
  }),
  auditList: endpoint({
    path: '/admin/audit/list',
    body: z.object({
      username: optionalText(32),
      action: optionalText(60),
      outcome: z.enum(AUDIT_OUTCOMES, { error: '结果不正确' }).optional(),
      /** Rows up to this id only (the first page's top row): pages stay put while others act. */
      beforeId: z
        .string()
        .regex(/^[1-9][0-9]{0,17}$/, { error: '起始记录格式错误' })
        .optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 100, 20, '每页条数'),
    }),
    data: pageOf(auditEntrySchema),
  }),
} as const;
