import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  totpCode,
  verifyTotp,
} from '../../src/modules/console/totp.ts';

// RFC 6238 Appendix B: T0 = 0, X = 30 s, 8 digits, the ASCII seeds below per algorithm.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)(
    'at %i s gives the RFC codes for SHA-1, SHA-256 and SHA-512',
    (seconds, s1, s256, s512) => {
      const step = Math.floor(seconds / 30);
      expect(hotp(SEEDS.sha1, step, 8, 'sha1')).toBe(s1);
      expect(hotp(SEEDS.sha256, step, 8, 'sha256')).toBe(s256);
      expect(hotp(SEEDS.sha512, step, 8, 'sha512')).toBe(s512);
    },
  );

  it('six-digit codes of a base32 secret match the SHA-1 vector (last six digits)', () => {
    const secret = base32Encode(SEEDS.sha1);
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpCode(secret, new Date(59_000))).toBe('287082');
    expect(totpCode(secret, new Date(1_111_111_109_000))).toBe('081804');
  });

  it('accepts ±1 step, refuses further drift and a replayed step', () => {
    const secret = generateTotpSecret();
    expect(base32Decode(secret)).toHaveLength(20);
    const now = new Date('2026-11-26T12:00:10Z');
    const step = Math.floor(now.getTime() / 30_000);
    const at = (s: number) => new Date(s * 30_000);
    expect(verifyTotp(secret, totpCode(secret, at(step - 1)), now, null)).toBe(step - 1);
    expect(verifyTotp(secret, totpCode(secret, at(step + 1)), now, null)).toBe(step + 1);
    expect(verifyTotp(secret, totpCode(secret, at(step - 2)), now, null)).toBeNull();
    expect(verifyTotp(secret, totpCode(secret, now), now, step)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', now, null)).toBeNull();
  });
});
