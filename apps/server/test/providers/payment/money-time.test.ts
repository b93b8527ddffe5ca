import { describe, expect, it } from 'vitest';
import {
  formatRfc3339Shanghai,
  formatShanghaiDateTime,
  parseRfc3339,
  parseShanghaiDateTime,
} from '../../../src/providers/payment/china-time.ts';
import { formatFenAsYuan, MAX_AMOUNT_FEN, parseYuanToFen } from '../../../src/providers/payment/money.ts';

describe('fen <-> yuan, exactly', () => {
  it("parses the platforms' yuan strings without floating point", () => {
    expect(parseYuanToFen('0.01')).toBe(1);
    expect(parseYuanToFen('0.29')).toBe(29);
    expect(parseYuanToFen('0.5')).toBe(50);
    expect(parseYuanToFen('19.90')).toBe(1990);
    expect(parseYuanToFen('100')).toBe(10000);
    expect(parseYuanToFen('1.10')).toBe(110);
    expect(parseYuanToFen('100000000.00')).toBe(MAX_AMOUNT_FEN);
  });

  it('refuses anything that is not a plain amount of at most two decimals', () => {
    for (const bad of [
      '',
      ' 1.00',
      '1.00 ',
      '-1.00',
      '+1',
      '1.005',
      '1.',
      '.5',
      '01.00',
      '1e2',
      '0x10',
      '1,00',
      '１.00',
      'NaN',
      '100000000.01',
    ]) {
      expect(parseYuanToFen(bad), bad).toBeNull();
    }
  });

  it('formats fen as the 2-decimal yuan string', () => {
    expect(formatFenAsYuan(1)).toBe('0.01');
    expect(formatFenAsYuan(29)).toBe('0.29');
    expect(formatFenAsYuan(1990)).toBe('19.90');
    expect(formatFenAsYuan(10000)).toBe('100.00');
    expect(formatFenAsYuan(0)).toBe('0.00');
    expect(() => formatFenAsYuan(1.5)).toThrow(RangeError);
    expect(() => formatFenAsYuan(-1)).toThrow(RangeError);
  });

  it('round-trips every amount up to ¥100', () => {
    for (let fen = 0; fen <= 10_000; fen++) expect(parseYuanToFen(formatFenAsYuan(fen))).toBe(fen);
  });
});

describe('China Standard Time formats, whatever the machine TZ', () => {
  const instant = new Date('2024-05-01T12:34:56.789Z');

  it('writes Alipay and WeChat times in +08:00', () => {
    expect(formatShanghaiDateTime(instant)).toBe('2024-05-01 20:34:56');
    expect(formatRfc3339Shanghai(instant)).toBe('2024-05-01T20:34:56+08:00');
    expect(formatShanghaiDateTime(new Date('2024-12-31T16:00:00Z'))).toBe('2025-01-01 00:00:00');
  });

  it('reads them back', () => {
    expect(parseShanghaiDateTime('2024-05-01 20:34:56')?.toISOString()).toBe('2024-05-01T12:34:56.000Z');
    expect(parseRfc3339('2024-05-01T20:34:56+08:00')?.toISOString()).toBe('2024-05-01T12:34:56.000Z');
    expect(parseRfc3339('2024-05-01T12:34:56Z')?.toISOString()).toBe('2024-05-01T12:34:56.000Z');
  });

  it('refuses malformed and impossible dates', () => {
    for (const bad of [
      '2024-05-01',
      '2024-05-01T20:34:56',
      '2024-02-31T00:00:00+08:00',
      '2024-13-01T00:00:00Z',
      'x',
    ]) {
      expect(parseRfc3339(bad), bad).toBeNull();
    }
    expect(parseShanghaiDateTime('2024-05-01T20:34:56')).toBeNull();
    expect(parseShanghaiDateTime('2024-02-30 10:00:00')).toBeNull();
  });
});
