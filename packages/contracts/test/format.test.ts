import { afterEach, describe, expect, it } from 'vitest';
import {
  FORMAT_ERRORS,
  fenToYuan,
  formatCurrency,
  formatDate,
  formatPaginationTotal,
  formatTemplate,
  formatYuan,
  round2,
  toChineseCapital,
  yuanToFen,
} from '../src/index.ts';

describe('formatCurrency', () => {
  it('formats CNY in zh-CN by default', () => {
    expect(formatCurrency(1234.5)).toBe('¥1,234.50');
    expect(formatCurrency(0)).toBe('¥0.00');
    expect(formatCurrency(1_000_000)).toBe('¥1,000,000.00');
    expect(formatCurrency(-1234.5)).toBe('-¥1,234.50');
  });

  it('accepts numeric strings, trimmed, with exponent', () => {
    expect(formatCurrency('1234.5')).toBe('¥1,234.50');
    expect(formatCurrency(' 99 ')).toBe('¥99.00');
    expect(formatCurrency('1e3')).toBe('¥1,000.00');
    expect(formatCurrency('.5')).toBe('¥0.50');
  });

  it('rounds half away from zero on the printed digits', () => {
    expect(formatCurrency(1.005)).toBe('¥1.01');
    expect(formatCurrency('1.005')).toBe('¥1.01');
    expect(formatCurrency(-1.005)).toBe('-¥1.01');
    expect(formatCurrency(1.004999)).toBe('¥1.00');
    expect(formatCurrency(-0.001)).toBe('¥0.00');
  });

  it('keeps exact digits beyond double precision when given a string', () => {
    expect(formatCurrency('12345678901234567.89')).toBe('¥12,345,678,901,234,567.89');
  });

  it('honours locale and currency options, with the currency decimals', () => {
    expect(formatCurrency(1234.5, { locale: 'en-US', currency: 'USD' })).toBe('$1,234.50');
    expect(formatCurrency(1234.5, { currency: 'JPY' })).toBe('JP¥1,235');
    expect(formatCurrency(1.5, { currency: 'cny' })).toBe('¥1.50');
  });

  it('throws Invalid value type for values that are neither numbers nor strings', () => {
    for (const value of [null, undefined, true, {}, [], 10n]) {
      expect(() => formatCurrency(value as never)).toThrow(new Error('Invalid value type'));
    }
  });

  it('throws Invalid currency format for NaN, infinities, non-numeric strings and unknown currencies', () => {
    for (const value of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'abc',
      '12abc',
      '1,234',
      '0x10',
      '1.2.3',
      '-',
    ]) {
      expect(() => formatCurrency(value), String(value)).toThrow(new Error('Invalid currency format'));
    }
    expect(() => formatCurrency(1, { currency: 'XYZ' })).toThrow(new Error('Invalid currency format'));
    expect(() => formatCurrency(1, { currency: 'RMB' })).toThrow(FORMAT_ERRORS.INVALID_CURRENCY_FORMAT);
  });
});

describe('formatYuan', () => {
  it('shows the API’s yuan strings and numbers with the symbol and two decimals', () => {
    expect(formatYuan('26')).toBe('¥26.00');
    expect(formatYuan(0.29)).toBe('¥0.29');
    expect(formatYuan('1234.5')).toBe('¥1,234.50');
  });

  it('shows a dash for a missing or unreadable amount instead of failing the page', () => {
    expect(formatYuan(null)).toBe('—');
    expect(formatYuan(undefined)).toBe('—');
    expect(formatYuan('')).toBe('—');
    expect(formatYuan('abc')).toBe('—');
  });
});

describe('fen and yuan', () => {
  it('fenToYuan divides integer fen by 100', () => {
    expect(fenToYuan(123456)).toBe(1234.56);
    expect(fenToYuan(1)).toBe(0.01);
    expect(fenToYuan(-50)).toBe(-0.5);
    expect(Object.is(fenToYuan(-0), 0)).toBe(true);
  });

  it('fenToYuan rejects fractional and unsafe fen', () => {
    expect(() => fenToYuan(1.5)).toThrow(RangeError);
    expect(() => fenToYuan(Number.NaN)).toThrow(RangeError);
    expect(() => fenToYuan(2 ** 53)).toThrow(RangeError);
  });

  it('yuanToFen is exact where a naive *100 drifts', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(yuanToFen(0.29)).toBe(29);
    expect(yuanToFen(1.15)).toBe(115);
    expect(yuanToFen(19.99)).toBe(1999);
    expect(yuanToFen('1234.56')).toBe(123456);
    expect(yuanToFen(100)).toBe(10000);
  });

  it('yuanToFen rounds sub-fen amounts half away from zero', () => {
    expect(yuanToFen(19.999)).toBe(2000);
    expect(yuanToFen(1.005)).toBe(101);
    expect(yuanToFen(-1.005)).toBe(-101);
    expect(yuanToFen(0.004)).toBe(0);
    expect(Object.is(yuanToFen(-0.004), 0)).toBe(true);
  });

  it('round-trips every fen value of a range', () => {
    for (let fen = -1000; fen <= 100_000; fen += 7) expect(yuanToFen(fenToYuan(fen))).toBe(fen);
  });

  it('yuanToFen throws the formatting errors', () => {
    expect(() => yuanToFen(null as never)).toThrow('Invalid value type');
    expect(() => yuanToFen('ten')).toThrow('Invalid currency format');
  });
});

describe('round2', () => {
  it('rounds half away from zero on the decimal digits', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(2.675)).toBe(2.68);
    expect(round2(-2.675)).toBe(-2.68);
    expect(round2(0.125)).toBe(0.13);
    expect(round2(1.004)).toBe(1);
    expect(round2(9.995)).toBe(10);
    expect(round2(123456789.125)).toBe(123456789.13);
  });

  it('leaves values with two decimals or fewer alone', () => {
    expect(round2(1.1)).toBe(1.1);
    expect(round2(42)).toBe(42);
    expect(round2(0.1 + 0.2)).toBe(0.3);
  });

  it('handles exponent notation and negative zero', () => {
    expect(round2(1e-7)).toBe(0);
    expect(round2(5e-3)).toBe(0.01);
    expect(round2(1e21)).toBe(1e21);
    expect(Object.is(round2(-0.001), 0)).toBe(true);
  });

  it('returns NaN and infinities unchanged', () => {
    expect(round2(Number.NaN)).toBeNaN();
    expect(round2(Number.NEGATIVE_INFINITY)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('toChineseCapital', () => {
  it('writes yuan, jiao and fen', () => {
    expect(toChineseCapital(1234.56)).toBe('壹仟贰佰叁拾肆元伍角陆分');
    expect(toChineseCapital(100)).toBe('壹佰元整');
    expect(toChineseCapital(0)).toBe('零元整');
    expect(toChineseCapital(1)).toBe('壹元整');
    expect(toChineseCapital(10)).toBe('壹拾元整');
    expect(toChineseCapital(1.5)).toBe('壹元伍角');
    expect(toChineseCapital(0.5)).toBe('伍角');
    expect(toChineseCapital(0.05)).toBe('伍分');
    expect(toChineseCapital(0.56)).toBe('伍角陆分');
  });

  it('writes 零 between yuan and fen when there is no jiao', () => {
    expect(toChineseCapital(100000.01)).toBe('壹拾万元零壹分');
    expect(toChineseCapital(1.05)).toBe('壹元零伍分');
  });

  it('applies the zero rules inside and across 万/亿 sections', () => {
    expect(toChineseCapital(10010)).toBe('壹万零壹拾元整');
    expect(toChineseCapital(1010)).toBe('壹仟零壹拾元整');
    expect(toChineseCapital(1001)).toBe('壹仟零壹元整');
    expect(toChineseCapital(100000000)).toBe('壹亿元整');
    expect(toChineseCapital(1000000001)).toBe('壹拾亿零壹元整');
    expect(toChineseCapital(100010000)).toBe('壹亿零壹万元整');
    expect(toChineseCapital(110000000)).toBe('壹亿壹仟万元整');
    expect(toChineseCapital(10001000)).toBe('壹仟万壹仟元整');
    expect(toChineseCapital(10000100)).toBe('壹仟万零壹佰元整');
    expect(toChineseCapital(10100000)).toBe('壹仟零壹拾万元整');
    expect(toChineseCapital(20000000000.1)).toBe('贰佰亿元壹角');
  });

  it('prefixes negatives with 负, but not a value that rounds to zero', () => {
    expect(toChineseCapital(-8)).toBe('负捌元整');
    expect(toChineseCapital(-1234.56)).toBe('负壹仟贰佰叁拾肆元伍角陆分');
    expect(toChineseCapital(-0.001)).toBe('零元整');
  });

  it('rounds to the fen half away from zero and accepts numeric strings', () => {
    expect(toChineseCapital(1.005)).toBe('壹元零壹分');
    expect(toChineseCapital(0.995)).toBe('壹元整');
    expect(toChineseCapital('1234.56')).toBe('壹仟贰佰叁拾肆元伍角陆分');
  });

  it('accepts integer parts up to 99,999,999,999', () => {
    expect(toChineseCapital(99999999999.99)).toBe('玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分');
    expect(toChineseCapital(-99999999999)).toBe('负玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元整');
  });

  it('throws the Chinese range error from 100 billion on, also after rounding', () => {
    const message = '转换失败：整数部分须在 -1000 亿到 1000 亿之间';
    expect(FORMAT_ERRORS.CHINESE_NUMERAL_OUT_OF_RANGE).toBe(message);
    expect(() => toChineseCapital(100_000_000_000)).toThrow(new Error(message));
    expect(() => toChineseCapital(-100_000_000_000)).toThrow(new Error(message));
    expect(() => toChineseCapital(1e15)).toThrow(new Error(message));
    expect(() => toChineseCapital('99999999999.995')).toThrow(new Error(message));
  });

  it('throws the formatting errors for bad input', () => {
    expect(() => toChineseCapital(Number.NaN)).toThrow('Invalid currency format');
    expect(() => toChineseCapital(undefined as never)).toThrow('Invalid value type');
  });
});

describe('formatDate', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTz;
  });

  it('defaults to YYYYMMDD in local time', () => {
    expect(formatDate(new Date(2025, 4, 28, 9, 52, 1))).toBe('20250528');
  });

  it('supports YYYY MM DD HH mm ss and copies other characters', () => {
    const date = new Date(2025, 0, 5, 7, 8, 9);
    expect(formatDate(date, 'YYYY-MM-DD HH:mm:ss')).toBe('2025-01-05 07:08:09');
    expect(formatDate(date, 'YYYY年MM月DD日')).toBe('2025年01月05日');
    expect(formatDate(new Date(2025, 0, 5, 23, 0, 0), 'HH')).toBe('23');
  });

  it('accepts timestamps and ISO strings with a zone, rendered in local time', () => {
    process.env.TZ = 'Asia/Shanghai';
    expect(formatDate(Date.UTC(2025, 4, 27, 16, 30, 0), 'YYYY-MM-DD HH:mm')).toBe('2025-05-28 00:30');
    expect(formatDate('2025-05-27T16:30:00Z', 'YYYYMMDD HH')).toBe('20250528 00');
    expect(formatDate('2025-05-28T09:52:01+08:00', 'HH:mm:ss')).toBe('09:52:01');
  });

  it('reads date-only and zone-less strings as local time, whatever the zone', () => {
    for (const tz of ['America/Los_Angeles', 'Asia/Shanghai', 'UTC']) {
      process.env.TZ = tz;
      expect(formatDate('2025-05-28'), tz).toBe('20250528');
      expect(formatDate('2025-05-28 09:52:01', 'YYYY-MM-DD HH:mm:ss'), tz).toBe('2025-05-28 09:52:01');
      expect(formatDate('2025-05-28T09:52', 'HH:mm:ss'), tz).toBe('09:52:00');
    }
  });

  it('throws Invalid date for unparseable input and impossible calendar dates', () => {
    expect(() => formatDate('not a date')).toThrow(new Error('Invalid date'));
    expect(() => formatDate(Number.NaN)).toThrow('Invalid date');
    expect(() => formatDate(new Date(Number.NaN))).toThrow('Invalid date');
    expect(() => formatDate('2025-02-30')).toThrow('Invalid date');
  });
});

describe('templates and pagination', () => {
  it('formatTemplate fills numbered placeholders', () => {
    expect(formatTemplate('共 {0} 条', 12)).toBe('共 12 条');
    expect(formatTemplate('{1}/{0}/{1}', 'a', 'b')).toBe('b/a/b');
    expect(formatTemplate('第 {0} 页，共 {1} 页', 1)).toBe('第 1 页，共 {1} 页');
  });

  it('formatPaginationTotal uses the spec text', () => {
    expect(formatPaginationTotal(12)).toBe('共 12 条');
    expect(formatPaginationTotal(0)).toBe('共 0 条');
    expect(formatPaginationTotal(12345)).toBe('共 12345 条');
  });
});
