import { z } from 'zod';
import { COMMISSION_SERVICES } from './commission-rules.ts';
import { endpoint, isoDate, nullData, uuidSchema } from './endpoint.ts';
import {
  FREE_ENTITLEMENTS,
  GOODS_DESCRIPTION_PRICE_ERROR,
  GOODS_RULES,
  PRICE_IN_TEXT,
  SITE_RULES,
} from './goods-rules.ts';
import { siteInfoSchema } from './home.ts';
import { intInSchema, pageOf, SERVICE_TYPES } from './orders.ts';

/**
 * The console's goods and prices, site info and friend links, user locks and account requests,
 * and stuck jobs, under /kyfw/web/v1/admin (docs/api/operator.md, "Goods, site, users, jobs").
 * Every call is written to the audit log; the roles are in the comment of each group.
 */

// --- goods and prices (list: admin, finance; changes: admin) -------------------------------------

const freeRuleSchema = z.object({
  entitlement: z.enum(FREE_ENTITLEMENTS, { error: '免费规则的权益不存在' }),
  /** Check goods: the largest paper (characters) the free use covers; null: the server's cap. */
  maxQuantity: z.number().int().nullable(),
  text: z.string(),
});
export type GoodsFreeRule = z.output<typeof freeRuleSchema>;

export const adminGoodsSchema = z.object({
  goodsId: z.string(),
  serviceType: z.enum(SERVICE_TYPES),
  serviceTypeText: z.string(),
  name: z.string(),
  description: z.string(),
  unitPriceFen: z.number(),
  /** Yuan with two decimals, as users see it. */
  unitPrice: z.string(),
  unitSize: z.number(),
  unit: z.string(),
  minQuantity: z.number(),
  maxQuantity: z.number(),
  freeRule: freeRuleSchema.nullable(),
  /** Commissioned services: calendar days promised after payment (预计完成日期); null: none promised. */
  turnaroundDays: z.number().nullable(),
  /** On sale (上架); off sale goods cannot be ordered and are not listed to users. */
  active: z.boolean(),
  sortOrder: z.number(),
  /** Orders sold with it: such goods can be taken off sale but not deleted. */
  orders: z.number(),
  updatedAt: isoDate,
});
export type AdminGoods = z.output<typeof adminGoodsSchema>;

const goodsId = z
  .string({ error: '请填写商品编号' })
  .trim()
  .regex(/^[a-z0-9_]{2,40}$/, { error: '商品编号须为 2–40 位小写字母、数字或下划线' });

const boundedText = (max: number, empty: string | null, label: string) => {
  const base = z.string({ error: empty ?? `${label}须为文字` }).trim();
  return (empty ? base.min(1, { error: empty }) : base).max(max, { error: `${label}不能超过${max}个字` });
};

const quantity = (label: string) =>
  z.coerce
    .number({ error: `${label}须为数字` })
    .int({ error: `${label}须为整数` })
    .min(1, { error: `${label}不能小于1` })
    .max(GOODS_RULES.quantityMax, { error: `${label}不能大于${GOODS_RULES.quantityMax}` });

/** A price in yuan as typed: digits with at most two decimals, more than 0, at most 99,999.99. */
export const priceYuanSchema = z
  .string({ error: '请填写单价' })
  .trim()
  .regex(/^[0-9]{1,5}(\.[0-9]{1,2})?$/, { error: '单价须为不超过 99999.99 的金额，最多两位小数' })
  .transform((s) => Math.round(Number(s) * 100))
  .refine((fen) => fen > 0, { error: '单价须大于 0（免费使用请设置免费规则）' });

export const goodsSaveBody = z
  .object({
    goodsId,
    serviceType: z.enum(SERVICE_TYPES, { error: '请选择服务类型' }),
    name: boundedText(GOODS_RULES.nameMax, '请填写商品名称', '商品名称'),
    description: boundedText(GOODS_RULES.descriptionMax, null, '商品说明')
      .default('')
      .refine((text) => !PRICE_IN_TEXT.test(text), { error: GOODS_DESCRIPTION_PRICE_ERROR }),
    unitPrice: priceYuanSchema,
    unitSize: quantity('计价单位数量'),
    unit: boundedText(GOODS_RULES.unitMax, '请填写单位', '单位'),
    minQuantity: quantity('最小数量'),
    maxQuantity: quantity('最大数量'),
    sortOrder: intInSchema(-10_000, 10_000, 0, '排序'),
    turnaroundDays: z.coerce
      .number({ error: '办理时限须为数字' })
      .int({ error: '办理时限须为整数天' })
      .min(1, { error: '办理时限不能少于1天' })
      .max(GOODS_RULES.turnaroundDaysMax, { error: `办理时限不能超过${GOODS_RULES.turnaroundDaysMax}天` })
      .nullable()
      .default(null),
    freeRule: z
      .object({
        entitlement: z.enum(FREE_ENTITLEMENTS, { error: '免费规则的权益不存在' }),
        maxQuantity: quantity('免费字数上限').nullable().default(null),
        text: boundedText(GOODS_RULES.freeTextMax, '请填写免费规则的说明', '免费规则说明'),
      })
      .nullable()
      .default(null),
  })
  .refine((g) => g.maxQuantity >= g.minQuantity, {
    error: '最大数量不能小于最小数量',
    path: ['maxQuantity'],
  })
  .refine(
    (g) => g.turnaroundDays === null || (COMMISSION_SERVICES as readonly string[]).includes(g.serviceType),
    {
      error: '只有委托办理的服务（检索报告、科技查新、文献下载、成果评价）可以设置办理时限',
      path: ['turnaroundDays'],
    },
  );

export const goodsAdminApi = {
  goodsList: endpoint({ path: '/admin/goods/list', data: z.array(adminGoodsSchema) }),
  /** New goods (the id must be free). */
  goodsCreate: endpoint({ path: '/admin/goods/create', body: goodsSaveBody, data: adminGoodsSchema }),
  /** Changes goods; the service type cannot change. Orders already made keep their price. */
  goodsUpdate: endpoint({ path: '/admin/goods/update', body: goodsSaveBody, data: adminGoodsSchema }),
  goodsSetActive: endpoint({
    path: '/admin/goods/setActive',
    body: z.object({ goodsId, active: z.boolean({ error: '请指定上架或下架' }) }),
    data: adminGoodsSchema,
  }),
  /** Only goods no order, check or commission uses. */
  goodsDelete: endpoint({ path: '/admin/goods/delete', body: z.object({ goodsId }), data: nullData }),
} as const;

// --- site info and friend links (admin, editor) ---------------------------------------------------

/** http(s) URLs only: javascript:, data: and the like are refused; the scheme and host come out in lower case. */
export const httpUrlSchema = (label: string) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .min(1, { error: `请填写${label}` })
    .max(SITE_RULES.urlMax, { error: `${label}不能超过${SITE_RULES.urlMax}个字符` })
    .refine(
      (s) => {
        try {
          const u = new URL(s);
          return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
        } catch {
          return false;
        }
      },
      { error: `${label}须为 http:// 或 https:// 开头的完整网址` },
    )
    // Stored as the URL parser writes it: scheme and host in lower case (HTTPS://WWW.X.CN/A ->
    // https://www.x.cn/A), as the table's check and every link on the page expect.
    .transform((s) => {
      try {
        return new URL(s).href;
      } catch {
        return s;
      }
    });

export const friendLinkAdminSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  sortOrder: z.number(),
});
export type FriendLinkAdmin = z.output<typeof friendLinkAdminSchema>;

const siteField = (label: string, required = true) =>
  boundedText(SITE_RULES.fieldMax, required ? `请填写${label}` : null, label);

export const siteInfoBody = z.object({
  name: boundedText(SITE_RULES.nameMax, '请填写网站名称', '网站名称'),
  contactPhone: z
    .string({ error: '请填写联系电话' })
    .trim()
    .regex(/^[0-9+\-() ]{5,30}$/, { error: '联系电话只能包含数字、空格和 + - ( )，5–30 位' }),
  companyAddress: siteField('公司地址'),
  /** The footer's QR image: an uploaded one (/media/site/…), the built-in one, or an http(s) URL. */
  qrCode: z
    .string({ error: '请上传或填写二维码图片' })
    .trim()
    .min(1, { error: '请上传或填写二维码图片' })
    .max(SITE_RULES.urlMax, { error: '二维码地址过长' })
    .refine((s) => /^\/(images|media\/site)\/[A-Za-z0-9._/-]+$/.test(s) || /^https?:\/\/[^\s]+$/.test(s), {
      error: '二维码须为上传的图片或 http:// / https:// 开头的图片网址',
    }),
  recordNumber: siteField('备案号'),
  copyright: siteField('版权信息'),
});

const linkId = z
  .string({ error: '友情链接不存在' })
  .trim()
  .regex(/^[0-9]{1,9}$/, { error: '友情链接不存在' });

export const siteAdminApi = {
  siteGet: endpoint({
    path: '/admin/site/get',
    data: z.object({ webInfo: siteInfoSchema, friendLinks: z.array(friendLinkAdminSchema) }),
  }),
  siteSave: endpoint({ path: '/admin/site/save', body: siteInfoBody, data: siteInfoSchema }),
  /** multipart: `file` (PNG, JPEG or WebP); answers the address to put in qrCode (not yet saved). */
  siteQrUpload: endpoint({
    path: '/admin/site/qrUpload',
    data: z.object({ url: z.string() }),
  }),
  linkSave: endpoint({
    path: '/admin/site/linkSave',
    body: z.object({
      id: linkId.optional(),
      name: boundedText(50, '请填写链接名称', '链接名称'),
      url: httpUrlSchema('链接地址'),
      sortOrder: intInSchema(-10_000, 10_000, 0, '排序'),
    }),
    data: friendLinkAdminSchema,
  }),
  linkDelete: endpoint({ path: '/admin/site/linkDelete', body: z.object({ id: linkId }), data: nullData }),
} as const;

// --- users: lock, entitlements, account requests (reads: admin, support; lock/unlock: admin) -----

export const ACCOUNT_REQUEST_KINDS = ['export', 'deletion'] as const;
export const ACCOUNT_REQUEST_TEXTS: Record<(typeof ACCOUNT_REQUEST_KINDS)[number], string> = {
  export: '导出个人数据',
  deletion: '注销账号',
};

export const accountRequestSchema = z.object({
  id: z.string(),
  userId: z.string(),
  kind: z.enum(ACCOUNT_REQUEST_KINDS),
  kindText: z.string(),
  /** Once the account is deleted its phone is gone: null. */
  phone: z.string().nullable(),
  at: isoDate,
});
export type AccountRequest = z.output<typeof accountRequestSchema>;

export const userEntitlementSchema = z.object({
  kind: z.string(),
  kindText: z.string(),
  grantedByText: z.string(),
  grantedAt: isoDate,
  usedAt: isoDate.nullable(),
  usedFor: z.string().nullable(),
});
export type UserEntitlement = z.output<typeof userEntitlementSchema>;

export const userDetailSchema = z.object({
  userId: z.string(),
  phone: z.string().nullable(),
  status: z.string(),
  statusText: z.string(),
  lockedAt: isoDate.nullable(),
  lockedReason: z.string().nullable(),
  entitlements: z.array(userEntitlementSchema),
  requests: z.array(accountRequestSchema),
});
export type UserDetail = z.output<typeof userDetailSchema>;

const userId = uuidSchema('用户不存在');

export const userAdminApi = {
  userDetail: endpoint({ path: '/admin/users/detail', body: z.object({ userId }), data: userDetailSchema }),
  userLock: endpoint({
    path: '/admin/users/lock',
    body: z.object({ userId, reason: boundedText(200, '请填写锁定原因', '锁定原因') }),
    data: userDetailSchema,
  }),
  userUnlock: endpoint({ path: '/admin/users/unlock', body: z.object({ userId }), data: userDetailSchema }),
  accountRequests: endpoint({
    path: '/admin/users/requests',
    body: z.object({
      kind: z.enum(ACCOUNT_REQUEST_KINDS, { error: '请求类型不存在' }).optional(),
      page: intInSchema(1, 10_000, 1, '页码'),
      pageSize: intInSchema(1, 50, 20, '每页条数'),
    }),
    data: pageOf(accountRequestSchema),
  }),
} as const;

// --- stuck jobs (admin) ---------------------------------------------------------------------------

export const stuckJobSchema = z.object({
  jobId: z.string(),
  name: z.string(),
  /** running: its lease ran out and no worker took it back; queued: waiting far longer than normal. */
  status: z.enum(['running', 'queued']),
  attempts: z.number(),
  maxAttempts: z.number(),
  progress: z.number(),
  progressText: z.string().nullable(),
  lockedBy: z.string().nullable(),
  lockedUntil: isoDate.nullable(),
  runAt: isoDate,
  updatedAt: isoDate,
  /** Minutes since the lease ran out (running) or since it was due (queued). */
  stuckMinutes: z.number(),
});
export type StuckJob = z.output<typeof stuckJobSchema>;

export const STUCK_QUEUED_MINUTES = 15;

/**
 * A commission e-mail notice that did not go out: `sending` whose claim's lease ran out (its worker
 * died and no retry is left to take it back) or `failed` (every attempt refused).
 */
export const stuckNoticeSchema = z.object({
  noticeId: z.string(),
  commissionNo: z.string(),
  kindText: z.string(),
  email: z.string(),
  status: z.enum(['sending', 'failed']),
  statusText: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  /** The Message-ID every send of this notice carries (null until it was first claimed). */
  messageId: z.string().nullable(),
  createdAt: isoDate,
  /** Minutes since the lease ran out (sending) or since it was created (failed). */
  stuckMinutes: z.number(),
});
export type StuckNotice = z.output<typeof stuckNoticeSchema>;

export const jobsAdminApi = {
  stuckJobs: endpoint({ path: '/admin/jobs/stuck', data: z.array(stuckJobSchema) }),
  stuckRetry: endpoint({
    path: '/admin/jobs/stuckRetry',
    body: z.object({ jobId: uuidSchema('任务不存在') }),
    data: z.object({ jobId: z.string(), name: z.string() }),
  }),
  /** Commission e-mail notices that did not go out (the 任务 screen's 邮件通知 tab). */
  stuckNotices: endpoint({ path: '/admin/jobs/stuckNotices', data: z.array(stuckNoticeSchema) }),
  /** Sends a stuck notice again (a new job), only while it is still stuck (else 1011). */
  noticeResend: endpoint({
    path: '/admin/jobs/noticeResend',
    body: z.object({ noticeId: uuidSchema('通知不存在') }),
    data: z.object({ noticeId: z.string() }),
  }),
} as const;
