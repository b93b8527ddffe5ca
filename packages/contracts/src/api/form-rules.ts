import { TAXPAYER_ID_MESSAGE } from '../credit-code.ts';

/**
 * Limits and messages that a web form checks before sending and the contract's schemas check
 * again. Kept apart from the schemas, and free of zod on purpose: a page that imports only these
 * does not pull zod into its bundle (zod probes `new Function`, which our Content-Security-Policy
 * refuses).
 */

/** Messages of the upload form (the web form shows the same). */
export const CHECK_UPLOAD_RULES = {
  title: { max: 200, required: '请输入论文题目', tooLong: '论文题目不能超过 200 个字' },
  author: { max: 50, required: '请输入作者姓名', tooLong: '作者不能超过 50 个字' },
  goods: { required: '请选择检测类型' },
} as const;

/** The report editor's rules (revise in the report, check-revise.ts): the server's schema and the web's editor. */
export const REVISE_RULES = {
  /** Most characters in one edited paragraph. */
  paragraphMaxChars: 5000,
  paragraphTooLong: '单个段落不能超过 5000 个字符',
  /** Most saved versions of one check. */
  maxVersions: 50,
  paragraph: '请选择要修改的段落',
} as const;

/** The address form's rules and messages: the server and the web form use these. */
export const ADDRESS_RULES = {
  name: { max: 20, required: '请填写收货人姓名', tooLong: '收货人姓名不能超过20个字' },
  phone: { required: '请输入手机号码', invalid: '请输入正确的手机号码' },
  province: { required: '请选择省份' },
  city: { required: '请选择城市' },
  district: { required: '请选择区县' },
  detail: { min: 2, max: 120, required: '请填写详细地址', tooLong: '详细地址不能超过120个字' },
} as const;

/** The invoice form's rules and messages. */
export const INVOICE_RULES = {
  orders: { max: 50, required: '请选择要开票的订单', tooMany: '一次最多选择50个订单' },
  titleType: { required: '请选择抬头类型（个人或企业）' },
  title: { max: 100, required: '请填写发票抬头', tooLong: '发票抬头不能超过100个字' },
  taxpayerId: { invalid: TAXPAYER_ID_MESSAGE, requiredForCompany: '企业抬头须填写纳税人识别号' },
  email: {
    max: 100,
    required: '请填写接收发票的邮箱',
    tooLong: '邮箱不能超过100个字符',
    invalid: '请输入正确的邮箱地址',
  },
} as const;

/** Limits of the writing forms: the writing schemas and the web form's inputs use these. */
export const WRITING_LIMITS = {
  topic: 200,
  title: 200,
  discipline: 50,
  targetWords: { min: 1000, max: 100_000 },
  requirements: 2000,
  outlineName: 60,
  outlineWords: 50_000,
  revisionInstruction: 500,
} as const;
