/**
 * Formatting helpers of spec §8/§9: money, Chinese capital numerals for invoices, rounding, dates
 * and the pagination text. Money is rounded on the decimal digits a number prints as (1.005 is
 * "1.005", not 1.00499999999999989…), so results match what a user typed and what a cashier expects.
 */
import {
  CHINESE_NUMERAL_LIMIT,
  CURRENCY,
  DEFAULT_DATE_FORMAT,
  DEFAULT_LOCALE,
  PAGINATION_TEXT,
} from './constants.ts';

/** Error messages thrown by the formatting helpers (spec §8). */
export const FORMAT_ERRORS = {
  INVALID_VALUE_TYPE: 'Invalid value type',
  INVALID_CURRENCY_FORMAT: 'Invalid currency format',
  CHINESE_NUMERAL_OUT_OF_RANGE: '转换失败：整数部分须在 -1000 亿到 1000 亿之间',
  INVALID_DATE: 'Invalid date',
} as const;

/** A finite decimal split into sign and digit strings: -12.5 -> {negative: true, integer: '12', fraction: '5'}. */
interface DecimalParts {
  negative: boolean;
  integer: string;
  fraction: string;
}

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** Parses a decimal literal (optionally with exponent) into digit strings, or null if it is not one. */
function parseDecimal(text: string): DecimalParts | null {
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const [, sign = '', intDigits = '', fracDigits = '', exponentText] = match;
  if (intDigits === '' && fracDigits === '') return null;
  const digits = intDigits + fracDigits;
  // Position of the decimal point inside `digits` after applying the exponent.
  const point = intDigits.length + (exponentText === undefined ? 0 : Number(exponentText));
  let integer: string;
  let fraction: string;
  if (point <= 0) {
    integer = '0';
    fraction = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    integer = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    integer = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  integer = integer.replace(/^0+(?=\d)/, '') || '0';
  fraction = fraction.replace(/0+$/, '');
  return { negative: sign === '-', integer, fraction };
}

/** Rounds digit strings half away from zero to `places` decimals. */
function roundDecimal(parts: DecimalParts, places: number): DecimalParts {
  const { negative, integer } = parts;
  if (parts.fraction.length <= places) return parts;
  let kept = integer + parts.fraction.slice(0, places);
  if (parts.fraction.charCodeAt(places) >= 0x35 /* '5' */) {
    // Add one at the last kept digit, carrying leftwards.
    const digits = kept.split('').map(Number);
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === 9) digits[i--] = 0;
    if (i < 0) digits.unshift(1);
    else digits[i]! += 1;
    kept = digits.join('');
  }
  const integerLength = kept.length - places;
  return {
    negative,
    integer: kept.slice(0, integerLength).replace(/^0+(?=\d)/, '') || '0',
    fraction: kept.slice(integerLength).replace(/0+$/, ''),
  };
}

function isZero(parts: DecimalParts): boolean {
  return /^0*$/.test(parts.integer) && /^0*$/.test(parts.fraction);
}

function toText(parts: DecimalParts): string {
  const sign = parts.negative && !isZero(parts) ? '-' : '';
  return sign + parts.integer + (parts.fraction === '' ? '' : `.${parts.fraction}`);
}

/**
 * Reads a money amount: a number, or a numeric string such as '1234.5', ' -0.01 ', '1e3'.
 * Throws 'Invalid value type' for other types and 'Invalid currency format' for NaN, ±Infinity or a
 * string that is not a decimal number.
 */
function readAmount(value: unknown): DecimalParts {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(FORMAT_ERRORS.INVALID_CURRENCY_FORMAT);
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    throw new Error(FORMAT_ERRORS.INVALID_VALUE_TYPE);
  }
  const parts = parseDecimal(text);
  if (parts === null) throw new Error(FORMAT_ERRORS.INVALID_CURRENCY_FORMAT);
  return parts;
}

let supportedCurrencies: ReadonlySet<string> | undefined;

function isKnownCurrency(code: string): boolean {
  supportedCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return supportedCurrencies.has(code);
}

/** Options of `formatCurrency`. */
export interface CurrencyFormatOptions {
  /** BCP 47 locale; default 'zh-CN'. */
  locale?: string;
  /** ISO 4217 code; default 'CNY'. */
  currency?: string;
}

/**
 * Formats a money amount with the currency's symbol and decimals: `formatCurrency(1234.5)` is
 * '¥1,234.50', `formatCurrency('-0.5')` is '-¥0.50'. Rounds half away from zero on the printed
 * digits (1.005 -> '¥1.01').
 * @param value a number or a numeric string.
 * @throws Error('Invalid value type') when `value` is neither a number nor a string.
 * @throws Error('Invalid currency format') when `value` is NaN, infinite or not a decimal string, or
 *   the currency code is unknown.
 */
export function formatCurrency(value: number | string, options: CurrencyFormatOptions = {}): string {
  const { locale = DEFAULT_LOCALE, currency = CURRENCY } = options;
  const parts = readAmount(value);
  if (!isKnownCurrency(currency.toUpperCase())) throw new Error(FORMAT_ERRORS.INVALID_CURRENCY_FORMAT);
  const formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const places = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  // Intl formats a decimal string exactly (no detour through a double), so the rounded digits survive.
  return formatter.format(toText(roundDecimal(parts, places)) as `${number}`);
}

/**
 * Shows an amount on a page: '¥2.00' from the API's yuan string (or a number), '—' when it is
 * missing or unreadable — a page shows a dash rather than failing on one bad field.
 */
export function formatYuan(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  try {
    return formatCurrency(amount);
  } catch {
    return '—';
  }
}

/**
 * Converts an integer amount in fen to yuan: `fenToYuan(123456)` is 1234.56 (the double nearest to it).
 * @throws RangeError when `fen` is not a safe integer.
 */
export function fenToYuan(fen: number): number {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`fen must be a safe integer, got ${fen}`);
  // One correctly rounded division: the result is the double nearest to the exact decimal.
  return fen / 100 || 0;
}

/**
 * Converts yuan to integer fen without float drift: `yuanToFen(0.29)` is 29 (not 28.999…),
 * `yuanToFen('19.999')` is 2000 (half away from zero below the fen).
 * @throws Error('Invalid value type') / Error('Invalid currency format') as `formatCurrency`.
 * @throws RangeError when the result is not a safe integer.
 */
export function yuanToFen(yuan: number | string): number {
  const rounded = roundDecimal(readAmount(yuan), 2);
  const fen = Number(`${rounded.negative ? '-' : ''}${rounded.integer}${rounded.fraction.padEnd(2, '0')}`);
  if (!Number.isSafeInteger(fen)) throw new RangeError(`amount out of range: ${String(yuan)}`);
  return fen || 0;
}

/**
 * Rounds to 2 decimals, half away from zero, on the digits the number prints as:
 * `round2(1.005)` is 1.01, `round2(-2.675)` is -2.68, `round2(-0.001)` is 0.
 * NaN and ±Infinity are returned unchanged.
 */
export function round2(n: number): number {
  if (!Number.isFinite(n)) return n;
  const parts = parseDecimal(String(n));
  // String() of a finite number is always a decimal literal.
  return Number(toText(roundDecimal(parts!, 2))) || 0;
}

const CAPITAL_DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const CAPITAL_SMALL_UNITS = ['', '拾', '佰', '仟'];
const CAPITAL_SECTION_UNITS = ['', '万', '亿'];

/** Integer digits (no leading zeros, at most 11) in capital numerals with the standard zero rules. */
function integerToCapital(integer: string): string {
  let out = '';
  let pendingZero = false;
  let sectionHasDigit = false;
  for (let i = 0; i < integer.length; i++) {
    const position = integer.length - 1 - i;
    const digit = integer.charCodeAt(i) - 0x30;
    if (digit === 0) {
      // A run of zeros prints one 零, and only when a non-zero digit follows.
      if (out !== '') pendingZero = true;
    } else {
      if (pendingZero) out += '零';
      pendingZero = false;
      out += CAPITAL_DIGITS[digit]! + CAPITAL_SMALL_UNITS[position % 4]!;
      sectionHasDigit = true;
    }
    if (position % 4 === 0) {
      // 万 / 亿 close a section that had a digit; zeros at the end of that section print nothing.
      if (sectionHasDigit) {
        out += CAPITAL_SECTION_UNITS[position / 4]!;
        pendingZero = false;
      }
      sectionHasDigit = false;
    }
  }
  return out;
}

/**
 * Writes an amount in yuan as Chinese capital numerals for invoices (大写金额), rounded half away from
 * zero to the fen: 1234.56 -> 壹仟贰佰叁拾肆元伍角陆分, 100 -> 壹佰元整, 0 -> 零元整,
 * 100000.01 -> 壹拾万元零壹分, 0.5 -> 伍角, -8 -> 负捌元整. 整 follows only whole yuan.
 * @param amount a number or a numeric string.
 * @throws Error('转换失败：整数部分须在 -1000 亿到 1000 亿之间') when |integer part| >= 100,000,000,000.
 * @throws Error('Invalid value type') / Error('Invalid currency format') as `formatCurrency`.
 */
export function toChineseCapital(amount: number | string): string {
  const parts = roundDecimal(readAmount(amount), 2);
  if (Number(parts.integer) >= CHINESE_NUMERAL_LIMIT) {
    throw new Error(FORMAT_ERRORS.CHINESE_NUMERAL_OUT_OF_RANGE);
  }
  if (isZero(parts)) return '零元整';
  const jiao = Number(parts.fraction[0] ?? '0');
  const fen = Number(parts.fraction[1] ?? '0');
  let out = parts.negative ? '负' : '';
  const hasYuan = parts.integer !== '0';
  if (hasYuan) out += `${integerToCapital(parts.integer)}元`;
  if (jiao === 0 && fen === 0) return `${out}整`;
  if (jiao !== 0) out += `${CAPITAL_DIGITS[jiao]}角`;
  else if (hasYuan) out += '零';
  if (fen !== 0) out += `${CAPITAL_DIGITS[fen]}分`;
  return out;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

// Date-only and zone-less date-time strings are local time here (`new Date('2025-05-28')` would be UTC).
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

function toDate(input: Date | number | string): Date {
  if (input instanceof Date) return new Date(input.getTime());
  if (typeof input === 'number') return new Date(input);
  if (typeof input === 'string') {
    const local = LOCAL_DATE_TIME.exec(input.trim());
    if (local) {
      const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = local;
      const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
      date.setMilliseconds(Number(ms.padEnd(3, '0')));
      // Reject rollovers such as 2025-02-30 instead of silently printing March.
      if (date.getMonth() !== Number(mo) - 1 || date.getDate() !== Number(d)) return new Date(Number.NaN);
      return date;
    }
    return new Date(input);
  }
  return new Date(Number.NaN);
}

/**
 * Formats a date in local time. Tokens: YYYY, MM, DD, HH (00–23), mm, ss; every other character is
 * copied. Accepts a Date, a timestamp in ms, or a string: 'YYYY-MM-DD' and 'YYYY-MM-DD HH:mm[:ss]'
 * (space or T, no zone) are read as local time, other strings (ISO with Z or an offset) by `Date`.
 * @param format default 'YYYYMMDD'.
 * @throws Error('Invalid date') when the input is not a valid date.
 */
export function formatDate(date: Date | number | string, format: string = DEFAULT_DATE_FORMAT): string {
  const d = toDate(date);
  if (Number.isNaN(d.getTime())) throw new Error(FORMAT_ERRORS.INVALID_DATE);
  return format.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => {
    switch (token) {
      case 'YYYY':
        return String(d.getFullYear()).padStart(4, '0');
      case 'MM':
        return pad2(d.getMonth() + 1);
      case 'DD':
        return pad2(d.getDate());
      case 'HH':
        return pad2(d.getHours());
      case 'mm':
        return pad2(d.getMinutes());
      default:
        return pad2(d.getSeconds());
    }
  });
}

/**
 * Fills `{0}`, `{1}`, … with the arguments: `formatTemplate('共 {0} 条', 12)` is '共 12 条'.
 * A placeholder without an argument is left as it is.
 */
export function formatTemplate(template: string, ...args: ReadonlyArray<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (placeholder, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? placeholder : String(arg);
  });
}

/** The pagination total text of spec §9: `formatPaginationTotal(12)` is '共 12 条'. */
export function formatPaginationTotal(total: number): string {
  return formatTemplate(PAGINATION_TEXT, total);
}
