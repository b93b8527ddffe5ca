/**
 * Validation rules and their exact messages (spec §5), in two forms over one source of truth:
 * pure validators for web forms (antd `validator` rules via `toFormValidator`) and zod schemas for
 * the server. Each schema delegates to the same validator, so a value gets the same message on both
 * sides.
 */
import { type ZodError, z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_PATTERN } from './constants.ts';
import { md5Hex } from './md5.ts';

/** Chinese validation messages. The first eleven are the spec's exact texts; the rest are ours. */
export const VALIDATION_MESSAGES = {
  PHONE_REQUIRED: '请输入手机号码',
  PHONE_INVALID: '请输入正确的手机号码',
  BIND_PHONE_INVALID: '请输入正确的手机号',
  PASSWORD_REQUIRED: '请输入密码',
  PASSWORD_TOO_SHORT: `密码不少于${PASSWORD_MIN}位`,
  TERMS_REQUIRED: '请阅读并接受《用户服务条款》《隐私政策》',
  EDUCATION_REQUIRED: '请选择学历',
  MAJOR_REQUIRED: '请选择专业',
  SMS_CODE_REQUIRED: '请输入短信验证码',
  AGREEMENT_REQUIRED: '请阅读并勾选…协议',
  /** Not in the spec: the input is capped at 50 characters there, the server still checks. */
  PASSWORD_TOO_LONG: `密码不能超过${PASSWORD_MAX}位`,
  /** Not in the spec: the SMS code sent by /sendCheckCode has six digits. */
  SMS_CODE_INVALID: '短信验证码为6位数字',
  /** Not in the spec: the wire password is not a 32-hex MD5. */
  PASSWORD_FORMAT_INVALID: '密码格式错误',
} as const;

/** A validator returns the Chinese message of the first broken rule, or null when the value passes. */
export type Validator = (value: unknown) => string | null;

const SMS_CODE_PATTERN = /^\d{6}$/;
const MD5_HEX_PATTERN = /^[0-9a-fA-F]{32}$/;
/** The hash a client sends when the user typed no password at all. */
const EMPTY_PASSWORD_MD5 = md5Hex('');

/** `undefined`, `null` and strings of only whitespace count as "not filled in". */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Length in characters (code points), so a Chinese character or an emoji counts once. */
function charLength(value: string): number {
  return Array.from(value).length;
}

/** True when `value` is a mainland mobile number (11 digits, 1 then 3–9); no trimming. */
export function isValidPhone(value: unknown): value is string {
  return typeof value === 'string' && PHONE_PATTERN.test(value);
}

/** Login phone: 请输入手机号码 when blank, 请输入正确的手机号码 when not a mobile number. */
export function validatePhone(value: unknown): string | null {
  if (isBlank(value)) return VALIDATION_MESSAGES.PHONE_REQUIRED;
  return isValidPhone(value) ? null : VALIDATION_MESSAGES.PHONE_INVALID;
}

/** Bind-phone phone: 请输入手机号码 when blank, 请输入正确的手机号 when not a mobile number. */
export function validateBindPhone(value: unknown): string | null {
  if (isBlank(value)) return VALIDATION_MESSAGES.PHONE_REQUIRED;
  return isValidPhone(value) ? null : VALIDATION_MESSAGES.BIND_PHONE_INVALID;
}

/**
 * Plain-text password (before hashing): 请输入密码 when empty, 密码不少于6位 below 6 characters,
 * 密码不能超过50位 above 50. Spaces are characters like any other; only '' / null / undefined are empty.
 */
export function validatePassword(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return VALIDATION_MESSAGES.PASSWORD_REQUIRED;
  if (typeof value !== 'string') return VALIDATION_MESSAGES.PASSWORD_FORMAT_INVALID;
  const length = charLength(value);
  if (length < PASSWORD_MIN) return VALIDATION_MESSAGES.PASSWORD_TOO_SHORT;
  if (length > PASSWORD_MAX) return VALIDATION_MESSAGES.PASSWORD_TOO_LONG;
  return null;
}

/**
 * Optional password of the bind-phone form: empty passes (no password is set — there is no default
 * password), anything else follows `validatePassword`.
 */
export function validateBindPassword(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  return validatePassword(value);
}

/** SMS check code: 请输入短信验证码 when blank, 短信验证码为6位数字 unless exactly six ASCII digits. */
export function validateSmsCode(value: unknown): string | null {
  if (isBlank(value)) return VALIDATION_MESSAGES.SMS_CODE_REQUIRED;
  return typeof value === 'string' && SMS_CODE_PATTERN.test(value)
    ? null
    : VALIDATION_MESSAGES.SMS_CODE_INVALID;
}

/** Login terms checkbox: passes only when exactly `true`. */
export function validateTerms(value: unknown): string | null {
  return value === true ? null : VALIDATION_MESSAGES.TERMS_REQUIRED;
}

/** Bind-phone agreement checkbox: passes only when exactly `true`. */
export function validateAgreement(value: unknown): string | null {
  return value === true ? null : VALIDATION_MESSAGES.AGREEMENT_REQUIRED;
}

/** Education select: 请选择学历 when blank (a numeric id such as 0 counts as chosen). */
export function validateEducation(value: unknown): string | null {
  return isBlank(value) ? VALIDATION_MESSAGES.EDUCATION_REQUIRED : null;
}

/** Major select: 请选择专业 when blank (a numeric id such as 0 counts as chosen). */
export function validateMajor(value: unknown): string | null {
  return isBlank(value) ? VALIDATION_MESSAGES.MAJOR_REQUIRED : null;
}

/**
 * Adapts a validator to the `validator` of an antd Form rule (`(rule, value) => Promise<void>`):
 * resolves when the value passes, rejects with `Error(message)` otherwise. No antd import needed.
 */
export function toFormValidator(validate: Validator): (rule: unknown, value: unknown) => Promise<void> {
  return (_rule, value) => {
    const message = validate(value);
    return message === null ? Promise.resolve() : Promise.reject(new Error(message));
  };
}

/** A zod string schema whose every failure (missing, wrong type, broken rule) carries the validator's message. */
function stringSchema(validate: Validator) {
  return z.string({ error: (issue) => validate(issue.input) ?? undefined }).check((ctx) => {
    const message = validate(ctx.value);
    if (message !== null) ctx.issues.push({ code: 'custom', message, input: ctx.value });
  });
}

/** Login phone number on the wire (`phoneNumber`); messages as `validatePhone`. */
export const phoneSchema = stringSchema(validatePhone);

/** Bind-phone / send-code phone number on the wire; messages as `validateBindPhone`. */
export const bindPhoneSchema = stringSchema(validateBindPhone);

/** SMS check code on the wire (`checkCode`): six digits; messages as `validateSmsCode`. */
export const smsCodeSchema = stringSchema(validateSmsCode);

function validateMd5Password(value: unknown): string | null {
  if (isBlank(value) || value === EMPTY_PASSWORD_MD5) return VALIDATION_MESSAGES.PASSWORD_REQUIRED;
  return typeof value === 'string' && MD5_HEX_PATTERN.test(value)
    ? null
    : VALIDATION_MESSAGES.PASSWORD_FORMAT_INVALID;
}

/**
 * Password on the wire (`passWord`): 32 hex characters (MD5 of the UTF-8 password), output lowercased.
 * 请输入密码 when missing or when it is the MD5 of the empty string; 密码格式错误 otherwise.
 */
export const md5PasswordSchema = stringSchema(validateMd5Password).toLowerCase();

/**
 * Optional wire password of the bind-phone call: missing, null or '' parses to `undefined` (no password is
 * set); anything else must pass `md5PasswordSchema`.
 */
export const optionalMd5PasswordSchema = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  md5PasswordSchema.optional(),
);

type Issue = ZodError['issues'][number];

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** `字段 phoneNumber `, `字段 items[0].name `; the root (the whole body) is `请求参数`. */
function fieldLabel(path: readonly PropertyKey[]): string {
  let label = '';
  for (const key of path) {
    if (typeof key === 'number') label += `[${key}]`;
    else label += label === '' ? String(key) : `.${String(key)}`;
  }
  return label === '' ? '请求参数' : `字段 ${label} `;
}

function isMissing(issue: Issue): boolean {
  if (issue.code !== 'invalid_type') return false;
  // With `reportInput: true` the input is on the issue; otherwise zod's default text says it.
  if ('input' in issue) return issue.input === undefined || issue.input === null;
  return /received (undefined|null)$/.test(issue.message);
}

/**
 * The Chinese message of one zod issue. A message containing Chinese is a custom message of the
 * schema and is kept; otherwise (zod's English defaults) a Chinese message naming the field is built,
 * e.g. `字段 phoneNumber 不能为空`, `字段 age 不能小于 18`, `字段 email 格式错误`.
 */
export function describeZodIssue(issue: Issue): string {
  if (CJK.test(issue.message)) return issue.message;
  const field = fieldLabel(issue.path);
  if (isMissing(issue)) return `${field}不能为空`;
  switch (issue.code) {
    case 'invalid_type':
      return `${field}类型错误`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        if (min <= 1 && issue.inclusive !== false) return `${field}不能为空`;
        const unit = issue.origin === 'string' ? '个字符' : '项';
        return issue.exact ? `${field}长度须为 ${min} ${unit}` : `${field}长度不能少于 ${min} ${unit}`;
      }
      return issue.inclusive === false ? `${field}必须大于 ${min}` : `${field}不能小于 ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        const unit = issue.origin === 'string' ? '个字符' : '项';
        return issue.exact ? `${field}长度须为 ${max} ${unit}` : `${field}长度不能超过 ${max} ${unit}`;
      }
      return issue.inclusive === false ? `${field}必须小于 ${max}` : `${field}不能大于 ${max}`;
    }
    case 'unrecognized_keys':
      return `${field}含有不支持的字段：${issue.keys.join(', ')}`;
    default:
      return `${field}格式错误`;
  }
}

/** The Chinese message of the first issue of a zod error (see `describeZodIssue`); '请求参数有误' if it has none. */
export function zodFirstMessage(error: ZodError): string {
  const first = error.issues[0];
  return first === undefined ? '请求参数有误' : describeZodIssue(first);
}

/**
 * All issues of a zod error as one Chinese text: each issue described by `describeZodIssue`,
 * duplicates dropped, joined with '；'. '请求参数有误' if the error has no issues.
 * For the one-field message the server's envelope uses, take `zodFirstMessage`.
 */
export function describeZodError(error: ZodError): string {
  const messages = [...new Set(error.issues.map(describeZodIssue))];
  return messages.length === 0 ? '请求参数有误' : messages.join('；');
}
