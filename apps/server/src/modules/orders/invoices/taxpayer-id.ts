/**
 * The unified social credit code (统一社会信用代码, GB 32100-2015), the 18-character taxpayer ID
 * on Chinese invoices: 1 registration-authority code, 1 organisation-type code, 6 digits of the
 * administrative division, 9 characters of the organisation code, 1 check character. The alphabet
 * has 31 characters (digits and capitals without I, O, S, V, Z); the check character is
 * 31 - (Σ value_i × weight_i mod 31), weights 3^i mod 31, with 31 written as 0.
 */
const ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const SHAPE = /^[0-9A-HJ-NPQRTUWXY]{2}[0-9]{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

export const TAXPAYER_ID_MESSAGE = '请输入正确的纳税人识别号（18位统一社会信用代码）';

/** The check character for the first 17 characters. */
export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += ALPHABET.indexOf(first17[i]!) * WEIGHTS[i]!;
  return ALPHABET[(31 - (sum % 31)) % 31]!;
}

/** True for a well-formed code whose check character matches (upper case; callers normalise). */
export function isValidCreditCode(code: string): boolean {
  return SHAPE.test(code) && creditCodeCheckChar(code.slice(0, 17)) === code[17];
}
