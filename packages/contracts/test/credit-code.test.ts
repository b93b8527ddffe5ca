import { describe, expect, it } from 'vitest';
import { creditCodeCheckChar, isValidCreditCode, normalizeCreditCode } from '../src/index.ts';

// Published codes of well-known companies (their check characters are part of the code).
const REAL = [
  '91110000802100433B', // 中国石油化工股份有限公司
  '91350100M000100Y43', // a code whose organisation part has letters
  '91440300708461136T', // 华为技术有限公司
  '911100001000044477', // 中国移动通信集团有限公司
];

describe('unified social credit code (GB 32100-2015)', () => {
  it('accepts real codes', () => {
    for (const code of REAL) expect(isValidCreditCode(code), code).toBe(true);
  });

  it('ignores case and spaces', () => {
    expect(isValidCreditCode('91440300708461136t')).toBe(true);
    expect(isValidCreditCode(' 9144 0300 7084 6113 6T ')).toBe(true);
    expect(normalizeCreditCode(' 9144 0300 7084 6113 6t')).toBe('91440300708461136T');
  });

  it('rejects a wrong check character', () => {
    expect(isValidCreditCode('91440300708461136A')).toBe(false);
    expect(isValidCreditCode('911100001000044478')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y44')).toBe(false);
    expect(isValidCreditCode('91350100M000100YI3')).toBe(false);
  });

  it('rejects every single-character change of a valid code', () => {
    const code = '91110000802100433B';
    for (let i = 0; i < 18; i++) {
      const changed = code.slice(0, i) + (code[i] === '1' ? '2' : '1') + code.slice(i + 1);
      expect(isValidCreditCode(changed), changed).toBe(false);
    }
  });

  it('rejects wrong length, letters outside the alphabet and letters in the division code', () => {
    expect(isValidCreditCode('')).toBe(false);
    expect(isValidCreditCode('91440300708461136')).toBe(false);
    expect(isValidCreditCode('91440300708461136TT')).toBe(false);
    // I, O, S, V, Z are not used
    expect(isValidCreditCode('9144030070846113IT')).toBe(false);
    expect(isValidCreditCode('91O40300708461136T')).toBe(false);
    // digits 3-8 are the administrative division
    expect(isValidCreditCode('9144A300708461136T')).toBe(false);
  });

  it('computes the check character, 31 written as 0', () => {
    expect(creditCodeCheckChar('91440300708461136')).toBe('T');
    // find a 17-character prefix whose sum is 0 mod 31 -> check character '0'
    const prefix = '00000000000000000';
    expect(creditCodeCheckChar(prefix)).toBe('0');
    expect(isValidCreditCode(`${prefix}0`)).toBe(true);
  });
});
