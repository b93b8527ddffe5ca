import {
  bindPhoneSchema,
  md5Hex,
  md5PasswordSchema,
  optionalMd5PasswordSchema,
  phoneSchema,
  smsCodeSchema,
  type Validator,
  validateEducation,
  validateMajor,
} from '@kyfw/contracts';
import { z } from 'zod';

/**
 * Request bodies of the accounts endpoints. Phone, SMS code and password reuse the contracts'
 * schemas, so the server answers with the spec's exact messages (§5). Unknown keys are stripped.
 */

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

export const sendCheckCodeBody = z.object({
  phoneNumber: bindPhoneSchema,
  type: z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    z.enum(['1', '2', '3', '4'], { error: TYPE_MESSAGE }),
  ),
});

export const registerBody = z.object({
  phoneNumber: phoneSchema,
  checkCode: smsCodeSchema,
  passWord: md5PasswordSchema,
});

export const loginBody = z.object({
  phoneNumber: phoneSchema,
  passWord: md5PasswordSchema,
});

export const resetPasswordBody = registerBody;

/** A QR session id (the spec's `userId`); anything else is answered like an expired QR. */
export const qrSessionIdSchema = z
  .string({ error: '二维码已过期，请重新扫码' })
  .regex(/^[A-Za-z0-9_-]{43}$/, {
    error: '二维码已过期，请重新扫码',
  });

export const loginStatusBody = z.object({ userId: z.unknown() });

export const getUserInfoBody = z.object({ userId: z.unknown().optional() });

/** The MD5 of '': a form that hashed an empty field. Binding treats it as "no password" too. */
const EMPTY_MD5 = md5Hex('');

export const bindPhoneBody = z.object({
  phoneNumber: bindPhoneSchema,
  checkCode: smsCodeSchema,
  passWord: z.preprocess(
    (value) => (typeof value === 'string' && value.toLowerCase() === EMPTY_MD5 ? undefined : value),
    optionalMd5PasswordSchema,
  ),
  major: selectSchema(validateMajor, '专业名称过长'),
  education: selectSchema(validateEducation, '学历名称过长'),
});

export const updateUserInfoBody = z.object({
  realName: optionalText(50, '姓名不能超过50个字'),
  unitName: optionalText(100, '单位名称不能超过100个字'),
  gender: z
    .union([z.enum(['male', 'female']), z.literal(''), z.null()], { error: '性别只能是 male 或 female' })
    .optional()
    .transform((value) => (value === '' ? null : value)),
  major: optionalText(50, '专业名称过长'),
  education: optionalText(50, '学历名称过长'),
});

export const passwordChangeBody = z.object({
  oldPassWord: md5PasswordSchema,
  passWord: md5PasswordSchema,
});

export const queryIsUsePhoneBody = z.object({ phoneNumber: phoneSchema });

export const deleteAccountBody = z
  .object({
    checkCode: smsCodeSchema.optional(),
    userId: z.unknown().optional(),
  })
  .refine((body) => body.checkCode !== undefined || body.userId !== undefined, {
    error: '请输入短信验证码',
  });
