import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bindPhoneSchema,
  describeZodError,
  describeZodIssue,
  isValidPhone,
  VALIDATION_MESSAGES as M,
  md5Hex,
  md5PasswordSchema,
  optionalMd5PasswordSchema,
  phoneSchema,
  smsCodeSchema,
  toFormValidator,
  validateAgreement,
  validateBindPassword,
  validateBindPhone,
  validateEducation,
  validateMajor,
  validatePassword,
  validatePhone,
  validateSmsCode,
  validateTerms,
  zodFirstMessage,
} from '../src/index.ts';

/** The message zod reports for `input`, or null when it parses. */
function messageOf(schema: z.ZodType, input: unknown): string | null {
  const result = schema.safeParse(input);
  return result.success ? null : zodFirstMessage(result.error);
}

describe('validation messages', () => {
  it('are the spec §5 texts verbatim', () => {
    expect(M.PHONE_REQUIRED).toBe('请输入手机号码');
    expect(M.PHONE_INVALID).toBe('请输入正确的手机号码');
    expect(M.BIND_PHONE_INVALID).toBe('请输入正确的手机号');
    expect(M.PASSWORD_REQUIRED).toBe('请输入密码');
    expect(M.PASSWORD_TOO_SHORT).toBe('密码不少于6位');
    expect(M.PASSWORD_TOO_LONG).toBe('密码不能超过50位');
    expect(M.TERMS_REQUIRED).toBe('请阅读并接受《用户服务条款》《隐私政策》');
    expect(M.EDUCATION_REQUIRED).toBe('请选择学历');
    expect(M.MAJOR_REQUIRED).toBe('请选择专业');
    expect(M.SMS_CODE_REQUIRED).toBe('请输入短信验证码');
    expect(M.SMS_CODE_INVALID).toBe('短信验证码为6位数字');
    expect(M.PASSWORD_FORMAT_INVALID).toBe('密码格式错误');
  });

  it('keeps the agreement message with the real ellipsis character U+2026', () => {
    expect(M.AGREEMENT_REQUIRED).toBe('请阅读并勾选\u2026协议');
    expect(M.AGREEMENT_REQUIRED).not.toContain('...');
  });
});

describe('phone validators', () => {
  it('isValidPhone follows 1[3-9] + 9 digits without trimming', () => {
    expect(isValidPhone('13912345678')).toBe(true);
    expect(isValidPhone('11912345678')).toBe(false);
    expect(isValidPhone(' 13912345678')).toBe(false);
    expect(isValidPhone('1391234567')).toBe(false);
    expect(isValidPhone('１３９１２３４５６７８')).toBe(false); // full-width digits
    expect(isValidPhone(13912345678)).toBe(false);
  });

  it('validatePhone: required, then the login message', () => {
    expect(validatePhone('')).toBe('请输入手机号码');
    expect(validatePhone('   ')).toBe('请输入手机号码');
    expect(validatePhone(undefined)).toBe('请输入手机号码');
    expect(validatePhone(null)).toBe('请输入手机号码');
    expect(validatePhone('12345678901')).toBe('请输入正确的手机号码');
    expect(validatePhone('13800138000')).toBeNull();
  });

  it('validateBindPhone uses the shorter bind message', () => {
    expect(validateBindPhone('')).toBe('请输入手机号码');
    expect(validateBindPhone('1380013800a')).toBe('请输入正确的手机号');
    expect(validateBindPhone('15800138000')).toBeNull();
  });
});

describe('password validators', () => {
  it('validatePassword: required, at least 6, at most 50 characters', () => {
    expect(validatePassword('')).toBe('请输入密码');
    expect(validatePassword(undefined)).toBe('请输入密码');
    expect(validatePassword('12345')).toBe('密码不少于6位');
    expect(validatePassword('123456')).toBeNull();
    expect(validatePassword('a'.repeat(50))).toBeNull();
    expect(validatePassword('a'.repeat(51))).toBe('密码不能超过50位');
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    expect(validatePassword('密码密码密码')).toBeNull();
    expect(validatePassword('😀😀😀')).toBe('密码不少于6位'); // 3 characters, 6 UTF-16 units
    expect(validatePassword('密'.repeat(50))).toBeNull();
  });

  it('treats spaces as characters', () => {
    expect(validatePassword('      ')).toBeNull();
  });

  it('validateBindPassword: empty sets no password, otherwise the login rules', () => {
    expect(validateBindPassword('')).toBeNull();
    expect(validateBindPassword(undefined)).toBeNull();
    expect(validateBindPassword('123')).toBe('密码不少于6位');
    expect(validateBindPassword('1234567')).toBeNull();
  });
});

describe('other form validators', () => {
  it('validateSmsCode: required, then exactly six digits', () => {
    expect(validateSmsCode('')).toBe('请输入短信验证码');
    expect(validateSmsCode(undefined)).toBe('请输入短信验证码');
    expect(validateSmsCode('12345')).toBe('短信验证码为6位数字');
    expect(validateSmsCode('1234567')).toBe('短信验证码为6位数字');
    expect(validateSmsCode('12a456')).toBe('短信验证码为6位数字');
    expect(validateSmsCode('012345')).toBeNull();
  });

  it('checkboxes pass only when ticked', () => {
    expect(validateTerms(true)).toBeNull();
    expect(validateTerms(false)).toBe('请阅读并接受《用户服务条款》《隐私政策》');
    expect(validateTerms(undefined)).toBe('请阅读并接受《用户服务条款》《隐私政策》');
    expect(validateAgreement(true)).toBeNull();
    expect(validateAgreement('true')).toBe('请阅读并勾选…协议');
  });

  it('selects are required; the id 0 counts as chosen', () => {
    expect(validateEducation(undefined)).toBe('请选择学历');
    expect(validateEducation('')).toBe('请选择学历');
    expect(validateEducation(0)).toBeNull();
    expect(validateEducation('本科')).toBeNull();
    expect(validateMajor(null)).toBe('请选择专业');
    expect(validateMajor('计算机科学与技术')).toBeNull();
  });

  it('toFormValidator resolves on success and rejects with the message (antd rule shape)', async () => {
    const rule = toFormValidator(validatePhone);
    await expect(rule({}, '13800138000')).resolves.toBeUndefined();
    await expect(rule({}, '123')).rejects.toThrow('请输入正确的手机号码');
    await expect(rule({}, '')).rejects.toThrow('请输入手机号码');
  });
});

describe('zod schemas', () => {
  it('phoneSchema gives the same messages as validatePhone, also for missing and wrong types', () => {
    expect(messageOf(phoneSchema, undefined)).toBe('请输入手机号码');
    expect(messageOf(phoneSchema, null)).toBe('请输入手机号码');
    expect(messageOf(phoneSchema, '')).toBe('请输入手机号码');
    expect(messageOf(phoneSchema, 13800138000)).toBe('请输入正确的手机号码');
    expect(messageOf(phoneSchema, '12800138000')).toBe('请输入正确的手机号码');
    expect(phoneSchema.parse('13800138000')).toBe('13800138000');
  });

  it('bindPhoneSchema uses the bind message', () => {
    expect(messageOf(bindPhoneSchema, '128')).toBe('请输入正确的手机号');
    expect(messageOf(bindPhoneSchema, '13800138000')).toBeNull();
  });

  it('smsCodeSchema requires six digits', () => {
    expect(messageOf(smsCodeSchema, undefined)).toBe('请输入短信验证码');
    expect(messageOf(smsCodeSchema, '12345')).toBe('短信验证码为6位数字');
    expect(messageOf(smsCodeSchema, 123456)).toBe('短信验证码为6位数字');
    expect(smsCodeSchema.parse('654321')).toBe('654321');
  });

  it('md5PasswordSchema accepts 32 hex characters and lowercases them', () => {
    const hash = md5Hex('secret123');
    expect(md5PasswordSchema.parse(hash)).toBe(hash);
    expect(md5PasswordSchema.parse(hash.toUpperCase())).toBe(hash);
    expect(messageOf(md5PasswordSchema, 'secret123')).toBe('密码格式错误');
    expect(messageOf(md5PasswordSchema, `${hash}0`)).toBe('密码格式错误');
    expect(messageOf(md5PasswordSchema, `${hash.slice(1)}g`)).toBe('密码格式错误');
    expect(messageOf(md5PasswordSchema, undefined)).toBe('请输入密码');
    expect(messageOf(md5PasswordSchema, '')).toBe('请输入密码');
  });

  it('md5PasswordSchema treats the hash of an empty password as no password', () => {
    expect(messageOf(md5PasswordSchema, md5Hex(''))).toBe('请输入密码');
  });

  it('optionalMd5PasswordSchema maps missing, null and "" to undefined (no password is set)', () => {
    expect(optionalMd5PasswordSchema.parse(undefined)).toBeUndefined();
    expect(optionalMd5PasswordSchema.parse(null)).toBeUndefined();
    expect(optionalMd5PasswordSchema.parse('')).toBeUndefined();
    expect(optionalMd5PasswordSchema.parse(md5Hex('abcdef').toUpperCase())).toBe(md5Hex('abcdef'));
    expect(messageOf(optionalMd5PasswordSchema, 'abcdef')).toBe('密码格式错误');
  });

  it('names the failing field of an object body', () => {
    const body = z.object({ phoneNumber: phoneSchema, checkCode: smsCodeSchema });
    const result = body.safeParse({ phoneNumber: '13800138000', checkCode: '12' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['checkCode']);
    expect(zodFirstMessage(result.error!)).toBe('短信验证码为6位数字');
  });
});

describe('describing zod errors in Chinese', () => {
  const schema = z.object({
    phoneNumber: phoneSchema,
    title: z.string().min(2).max(5),
    age: z.number().min(18),
    score: z.number().gt(0).lt(100),
    email: z.email(),
    tags: z.array(z.string()).nonempty(),
    code: z.string().length(3),
    nested: z.object({ items: z.array(z.object({ name: z.string() })) }),
    kind: z.enum(['a', 'b']),
  });

  function issuesOf(input: unknown, reportInput = false) {
    const result = schema.safeParse(input, { reportInput });
    if (result.success) throw new Error('expected a failure');
    return result.error;
  }

  it('keeps the schema custom Chinese message', () => {
    const error = issuesOf({ phoneNumber: '1' });
    expect(describeZodIssue(error.issues[0]!)).toBe('请输入正确的手机号码');
  });

  it('builds 字段 X 不能为空 for missing fields, with and without reportInput', () => {
    for (const reportInput of [false, true]) {
      const error = issuesOf({ phoneNumber: '13800138000' }, reportInput);
      const byPath = new Map(error.issues.map((issue) => [issue.path.join('.'), describeZodIssue(issue)]));
      expect(byPath.get('title')).toBe('字段 title 不能为空');
      expect(byPath.get('nested')).toBe('字段 nested 不能为空');
    }
  });

  it('builds range, length, type and format messages naming the field', () => {
    const error = issuesOf({
      phoneNumber: '13800138000',
      title: 'a',
      age: 3,
      score: 100,
      email: 'not-an-email',
      tags: [],
      code: 'ab',
      nested: { items: [{ name: 1 }] },
      kind: 'c',
    });
    expect(error.issues.map(describeZodIssue)).toEqual([
      '字段 title 长度不能少于 2 个字符',
      '字段 age 不能小于 18',
      '字段 score 必须小于 100',
      '字段 email 格式错误',
      '字段 tags 不能为空',
      '字段 code 长度须为 3 个字符',
      '字段 nested.items[0].name 类型错误',
      '字段 kind 格式错误',
    ]);
  });

  it('describes too-long strings and exclusive lower bounds', () => {
    const error = issuesOf({
      phoneNumber: '13800138000',
      title: 'abcdefg',
      age: 20,
      score: 0,
      email: 'a@b.cn',
      tags: ['x'],
      code: 'abc',
      nested: { items: [] },
      kind: 'a',
    });
    expect(error.issues.map(describeZodIssue)).toEqual([
      '字段 title 长度不能超过 5 个字符',
      '字段 score 必须大于 0',
    ]);
  });

  it('names the body itself 请求参数', () => {
    const result = z.object({ a: z.string() }).safeParse('text');
    expect(zodFirstMessage(result.error!)).toBe('请求参数类型错误');
    const strict = z.strictObject({ a: z.string() }).safeParse({ a: 'x', zz: 1 });
    expect(zodFirstMessage(strict.error!)).toBe('请求参数含有不支持的字段：zz');
  });

  it('describeZodError joins distinct messages with ；, zodFirstMessage takes the first', () => {
    const body = z.object({
      phoneNumber: phoneSchema,
      bindPhone: bindPhoneSchema,
      other: phoneSchema,
      x: z.string(),
    });
    const result = body.safeParse({ phoneNumber: '1', bindPhone: '1', other: '2' });
    expect(describeZodError(result.error!)).toBe('请输入正确的手机号码；请输入正确的手机号；字段 x 不能为空');
    expect(zodFirstMessage(result.error!)).toBe('请输入正确的手机号码');
  });

  it('falls back to 请求参数有误 for an error without issues', () => {
    const empty = new z.ZodError([]);
    expect(zodFirstMessage(empty)).toBe('请求参数有误');
    expect(describeZodError(empty)).toBe('请求参数有误');
  });
});
