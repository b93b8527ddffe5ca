/**
 * The unified social credit code (统一社会信用代码, GB 32100-2015): the 18-character taxpayer ID
 * (纳税人识别号) of a company invoice title. 1 registration-authority code, 1 organisation-type
 * code, 6 digits of the administrative division, 9 characters of the organisation code, 1 check
 * character. The alphabet has 31 characters (digits and capitals without I, O, S, V, Z); the check
 * character is 31 − (Σ value_i × 3^i mod 31) mod 31, with 31 written as 0.
 *
 * One rule for both sides: the web invoice form checks it for the message at once, the server's
 * invoice schema checks it again.
 */
const ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const SHAPE = /^[0-9A-HJ-NPQRTUWXY]{2}[0-9]{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

export const CREDIT_CODE_LENGTH = 18;

/** The message for a taxpayer ID that is not a valid unified social credit code. */
export const TAXPAYER_ID_MESSAGE = '请输入正确的纳税人识别号（18位统一社会信用代码）';

/** Upper case without spaces. */
export function normalizeCreditCode(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** The check character for the first 17 characters (which must be in the alphabet). */
export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < 17; i++) {
    const value = ALPHABET.indexOf(first17[i] ?? '');
    if (value < 0) throw new RangeError(`not a credit-code character: ${first17[i]}`);
    sum += value * weight;
    weight = (weight * 3) % 31;
  }
  return ALPHABET[(31 - (sum % 31)) % 31] as string;
}

/** True for a well-formed code whose check character matches; case and spaces do not matter. */
export function isValidCreditCode(input: string): boolean {
  const code = normalizeCreditCode(input);
  return SHAPE.test(code) && creditCodeCheckChar(code.slice(0, 17)) === code[17];
}
