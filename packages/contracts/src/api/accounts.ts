import { z } from 'zod';
import { md5Hex } from '../md5.ts';
import {
  bindPhoneSchema,
  md5PasswordSchema,
  optionalMd5PasswordSchema,
  phoneSchema,
  smsCodeSchema,
  type Validator,
  validateEducation,
  validateMajor,
} from '../validation.ts';
import { endpoint, isoDate, nullData } from './endpoint.ts';

/**
 * The accounts API (docs/api/accounts.md): SMS codes, registration, login (phone + password,
 * WeChat QR), the user's own profile, binding, password change, logout, deletion and data export.
 * Phone, SMS code and password reuse the spec's rules and exact messages (§5).
 */

// --- request pieces ---------------------------------------------------------------------------

/** A select value (major, education): a non-blank string or a number id, stored as text (<= 50). */
function selectSchema(validate: Validator, tooLong: string) {
  return z
    .unknown()
    .check((ctx) => {
      const message = validate(ctx.value);
      if (message !== null) ctx.issues.push({ code: 'custom', message, input: ctx.value });
      else if (typeof ctx.value !== 'string' && typeof ctx.value !== 'number') {
        ctx.issues.push({ code: 'custom', message: validate(undefined) ?? tooLong, input: ctx.value });
      }
    })
    .transform((value) => String(value).trim())
    .pipe(z.string().max(50, tooLong));
}

/** An optional profile text: '' and null clear the field; whitespace is trimmed. */
function optionalText(max: number, tooLong: string) {
  return z
    .union([z.string(), z.null()], { error: '格式错误' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === null ? null : value.trim() || null))
    .pipe(z.string().max(max, tooLong).nullable().optional());
}

const TYPE_MESSAGE = '短信类型错误';

/** The longest answer a picture check takes (its characters; longer is wrong at once). */
export const CAPTCHA_CODE_MAX = 8;

/** `type` of /sendCheckCode: 1 register, 2 bind phone, 3 reset password, 4 account deletion. */
export const smsPurposeSchema = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z.enum(['1', '2', '3', '4'], { error: TYPE_MESSAGE }),
);
export type SmsPurpose = z.output<typeof smsPurposeSchema>;

const registerBody = z.object({
  phoneNumber: phoneSchema,
  checkCode: smsCodeSchema,
  passWord: md5PasswordSchema,
});

/** A QR session id (the spec's `userId`); anything else is answered like an expired QR. */
export const qrSessionIdSchema = z
  .string({ error: '二维码已过期，请重新扫码' })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: '二维码已过期，请重新扫码' });

/** The MD5 of '': a form that hashed an empty field. Binding treats it as "no password" too. */
const EMPTY_MD5 = md5Hex('');

/** Profile fields of /websiteUser/updateUserInfo, with their limits and messages. */
export const PROFILE_LIMITS = {
  realName: { max: 50, tooLong: '姓名不能超过50个字' },
  unitName: { max: 100, tooLong: '单位名称不能超过100个字' },
  major: { max: 50, tooLong: '专业名称过长' },
  education: { max: 50, tooLong: '学历名称过长' },
} as const;

// --- response pieces --------------------------------------------------------------------------

export const genderSchema = z.enum(['male', 'female']);
export type Gender = z.output<typeof genderSchema>;

/** A free service the account got at registration or its first binding. */
export const entitlementSchema = z.object({
  kind: z.string(),
  grantedBy: z.string(),
  grantedAt: isoDate,
  usedAt: isoDate.nullable(),
  /** Usable now: unused, and its service exists. */
  available: z.boolean(),
  /** Its service does not exist yet: shown as 即将开放. */
  comingSoon: z.boolean(),
});
export type Entitlement = z.output<typeof entitlementSchema>;
export type EntitlementKind = 'free_check' | 'free_aigc_detection' | 'ai_writing_trial';

/** The caller's own account (spec §3: id, phoneNumber, wxOpenId; plus the profile). */
export const userInfoSchema = z.object({
  id: z.string(),
  /** Present when a phone number is bound; gates the change-password entry (spec §6). */
  phoneNumber: z.string().nullable(),
  /** Its presence marks a WeChat binding (spec §3); masked. */
  wxOpenId: z.string().nullable(),
  /** False: a phone bound without a password (decision 0005). */
  hasPassword: z.boolean(),
  realName: z.string().nullable(),
  unitName: z.string().nullable(),
  gender: genderSchema.nullable(),
  major: z.string().nullable(),
  education: z.string().nullable(),
  createdAt: isoDate,
  lastLoginAt: isoDate,
  entitlements: z.array(entitlementSchema),
  /** No free services because the phone or WeChat earned them on an earlier account. */
  entitlementsEarnedBefore: z.boolean(),
});
export type UserInfo = z.output<typeof userInfoSchema>;

/** `data` of /qrCode, /weixin/wx/getBindingRCode and /websiteUser/deleteAccountRCode. */
export const qrCodeSchema = z.object({
  /** The platform's QR ticket (spec §3). */
  ticket: z.string(),
  /** The QR session id to poll with (not a user id). */
  userId: z.string(),
  /** Where the browser loads the QR image (the platform's, or the sandbox's). */
  qrUrl: z.string(),
  expireSeconds: z.number(),
  /** True with the sandbox WeChat platform: the web offers 模拟扫码. */
  sandbox: z.boolean(),
});
export type QrCode = z.output<typeof qrCodeSchema>;

export const loginStatusSchema = z.object({
  loginStatus: z.enum(['0', '1']),
  userInfo: z.object({ token: z.string() }).nullable(),
});
export type LoginStatus = z.output<typeof loginStatusSchema>;

const tokenData = z.object({ token: z.string() });

// --- endpoints --------------------------------------------------------------------------------

export const accountsApi = {
  /** A picture check (图形验证码) for /sendCheckCode: its id and an SVG image as a data URL. */
  captcha: endpoint({
    path: '/captcha',
    data: z.object({ captchaId: z.string(), image: z.string() }),
  }),
  sendCheckCode: endpoint({
    path: '/sendCheckCode',
    body: z.object({
      phoneNumber: bindPhoneSchema,
      type: smsPurposeSchema,
      /** The picture check, once the server asked for one (2024 CAPTCHA_REQUIRED / 2025 CAPTCHA_WRONG). */
      captchaId: z.string().max(64).optional(),
      captchaCode: z
        .string()
        .trim()
        .max(CAPTCHA_CODE_MAX, { error: '图形验证码错误，请重新输入' })
        .optional(),
    }),
    /** `{sandbox: true}` when the sandbox SMS provider "sent" it (the web shows the 沙箱 notice). */
    data: z.object({ sandbox: z.literal(true) }).nullable(),
  }),
  addUserByPhone: endpoint({ path: '/addUserByPhone', body: registerBody, data: tokenData }),
  login: endpoint({
    path: '/login',
    body: z.object({ phoneNumber: phoneSchema, passWord: md5PasswordSchema }),
    data: tokenData,
  }),
  resetPassword: endpoint({ path: '/resetPassword', body: registerBody, data: nullData }),
  qrCode: endpoint({ path: '/qrCode', data: qrCodeSchema }),
  loginStatus: endpoint({
    path: '/loginStatus',
    body: z.object({ userId: z.unknown() }),
    data: loginStatusSchema,
  }),
  /** With `userId` (a bind QR session): `{wxOpenId: null}` until the scan binds, then the user. */
  getUserInfo: endpoint({
    path: '/getUserInfo',
    body: z.object({ userId: z.unknown().optional() }),
    data: z.union([userInfoSchema, z.object({ wxOpenId: z.null() })]),
  }),
  userInfo: endpoint({ path: '/websiteUser/userInfo', data: userInfoSchema }),
  getBindingRCode: endpoint({ path: '/weixin/wx/getBindingRCode', data: qrCodeSchema }),
  bindPhoneNumber: endpoint({
    path: '/websiteUser/bindPhoneNumber',
    body: z.object({
      phoneNumber: bindPhoneSchema,
      checkCode: smsCodeSchema,
      passWord: z.preprocess(
        (value) => (typeof value === 'string' && value.toLowerCase() === EMPTY_MD5 ? undefined : value),
        optionalMd5PasswordSchema,
      ),
      major: selectSchema(validateMajor, '专业名称过长'),
      education: selectSchema(validateEducation, '学历名称过长'),
    }),
    data: userInfoSchema,
  }),
  updateUserInfo: endpoint({
    path: '/websiteUser/updateUserInfo',
    body: z.object({
      realName: optionalText(PROFILE_LIMITS.realName.max, PROFILE_LIMITS.realName.tooLong),
      unitName: optionalText(PROFILE_LIMITS.unitName.max, PROFILE_LIMITS.unitName.tooLong),
      gender: z
        .union([genderSchema, z.literal(''), z.null()], { error: '性别只能是 male 或 female' })
        .optional()
        .transform((value) => (value === '' ? null : value)),
      major: optionalText(PROFILE_LIMITS.major.max, PROFILE_LIMITS.major.tooLong),
      education: optionalText(PROFILE_LIMITS.education.max, PROFILE_LIMITS.education.tooLong),
    }),
    data: userInfoSchema,
  }),
  passwordChange: endpoint({
    path: '/websiteUser/passwordChange',
    body: z.object({ oldPassWord: md5PasswordSchema, passWord: md5PasswordSchema }),
    data: nullData,
  }),
  queryIsUsePhone: endpoint({
    path: '/websiteUser/queryIsUsePhone',
    body: z.object({ phoneNumber: phoneSchema }),
    data: z.object({ used: z.boolean() }),
  }),
  logout: endpoint({ path: '/user/logout', data: nullData }),
  deleteAccountRCode: endpoint({ path: '/websiteUser/deleteAccountRCode', data: qrCodeSchema }),
  deleteAccount: endpoint({
    path: '/websiteUser/deleteAccount',
    body: z
      .object({
        checkCode: smsCodeSchema.optional(),
        userId: z.unknown().optional(),
        /** The account's password (MD5): deletion without a new SMS (the current session proves the rest). */
        passWord: md5PasswordSchema.optional(),
      })
      .refine(
        (body) => body.checkCode !== undefined || body.userId !== undefined || body.passWord !== undefined,
        {
          error: '请输入短信验证码',
        },
      ),
    data: z.object({ deleted: z.boolean() }),
  }),
  /** A JSON file of everything the account holds (GET or POST). */
  exportData: endpoint({ path: '/websiteUser/exportData', data: 'file' }),
} as const;
