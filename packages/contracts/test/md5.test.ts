import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '../src/index.ts';

const nodeMd5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

describe('md5Hex', () => {
  it('matches the RFC 1321 test suite', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex('a')).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Hex('message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(md5Hex('12345678901234567890123456789012345678901234567890123456789012345678901234567890')).toBe(
      '57edf4a22be3c955ac49da2e2107b67a',
    );
  });

  it('agrees with node:crypto on ASCII, Chinese, emoji and empty input', () => {
    for (const input of ['', 'password123', '密码不少于6位', '论文查重 AIGC 降重', '😀 emoji ✓', ' \n\t ']) {
      expect(md5Hex(input)).toBe(nodeMd5(input));
    }
  });

  it('agrees with node:crypto across the padding boundaries (55/56/63/64/65 bytes and multi-block)', () => {
    for (const length of [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) {
      const ascii = 'x'.repeat(length);
      expect(md5Hex(ascii), `ascii ${length}`).toBe(nodeMd5(ascii));
      const chinese = '中'.repeat(length); // 3 bytes each in UTF-8
      expect(md5Hex(chinese), `chinese ${length}`).toBe(nodeMd5(chinese));
    }
  });

  it('returns 32 lowercase hex characters', () => {
    expect(md5Hex('ABC')).toMatch(/^[0-9a-f]{32}$/);
  });
});
