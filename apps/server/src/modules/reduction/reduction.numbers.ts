/**
 * Numbers of a Chinese text as whole tokens: sign, value and unit, so that 8所 ≠ 18所,
 * -3.2% ≠ 3.2%, 3.42亿 = 34200万, 百分之三十五 = 35%, ３４．６％ = 34.6% and 三种 = 3种.
 * `numbersOf` finds them (with their place in the text); `numberKey` is what two tokens must share
 * to be the same number.
 */

export interface NumberToken {
  /** The text as written, e.g. '-3.2%', '百分之三十五', '3.42亿人'. */
  text: string;
  start: number;
  end: number;
  /** -1 or 1. */
  sign: number;
  /** The value, multipliers (万, 亿) applied. */
  value: number;
  /** The unit as normalised ('%', '‰', '元', '年', 'kg', …; '' without one). */
  unit: string;
  /** A classifier (所, 人, 名, 个…) rather than a unit: another classifier, or none, is the same number. */
  classifier: boolean;
  ordinal: boolean;
}

const CN_DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const CN_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const CN_BIG: Record<string, number> = { 万: 1e4, 亿: 1e8 };

/** 三十五 -> 35, 一百零二 -> 102, 十二 -> 12, 二〇二〇 -> 2020; NaN when not a numeral. */
export function chineseNumeralValue(s: string): number {
  if (/^[零〇一二三四五六七八九]{2,}$/u.test(s)) return Number([...s].map((c) => CN_DIGITS[c]).join(''));
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const c of s) {
    if (c in CN_DIGITS) digit = CN_DIGITS[c]!;
    else if (c in CN_UNITS) {
      section += (digit < 0 ? 1 : digit) * CN_UNITS[c]!;
      digit = -1;
    } else if (c in CN_BIG) {
      section += Math.max(digit, 0);
      total += section * CN_BIG[c]!;
      section = 0;
      digit = -1;
    } else return Number.NaN;
  }
  return total + section + Math.max(digit, 0);
}

/** Full-width digits, letters, signs and points -> ASCII; the same length, so positions stay. */
export function halfWidth(text: string): string {
  return text
    .replace(/[\uFF01-\uFF5E]/gu, (c) => {
      if (c === '，' || c === '；' || c === '：' || c === '（' || c === '）' || c === '！' || c === '？')
        return c;
      return String.fromCharCode(c.charCodeAt(0) - 0xfee0);
    })
    .replace(/[−–]/gu, '-');
}

/** Units that must stay exactly (a different one is a different fact). */
const UNITS = [
  '%',
  '‰',
  '℃',
  '°C',
  '°',
  '万元',
  '亿元',
  '千元',
  '百万元',
  '美元',
  '元',
  '岁',
  '周岁',
  '年',
  '个月',
  '月',
  '日',
  '天',
  '周',
  '小时',
  '分钟',
  '秒',
  '倍',
  '次',
  '吨',
  '千克',
  '公斤',
  '克',
  '毫克',
  '千米',
  '公里',
  '平方米',
  '平方公里',
  '立方米',
  '公顷',
  '亩',
  '米',
  '厘米',
  '毫米',
  '升',
  '毫升',
  '分',
];
/** Classifiers: interchangeable with each other and with none (8所高校 = 8家高校 = 8个高校). */
const CLASSIFIERS = [
  '所',
  '家',
  '人',
  '名',
  '位',
  '个',
  '项',
  '篇',
  '种',
  '类',
  '台',
  '件',
  '组',
  '条',
  '份',
  '例',
  '只',
  '头',
  '株',
  '批',
  '轮',
  '期',
  '层',
  '级',
  '章',
  '节',
  '段',
  '点',
  '道',
  '维',
  '座',
  '部',
  '本',
  '册',
];
const UNIT_RE = [...UNITS, ...CLASSIFIERS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|');
function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const CN_NUM = '[零〇一二两三四五六七八九十百千]';
const NUMBER_RE = new RegExp(
  [
    // 百分之三十五, 百分之3.5, 千分之五
    `(?<pct>[百千])分之(?<pctv>\\d+(?:\\.\\d+)?|${CN_NUM}+)`,
    // -3.2%, 3,000, 3.42亿人, 2020年, 第3章
    `(?<ord>第)?(?<neg>负)?(?<sign>[-+])?(?<d>\\d+(?:,\\d{3})*(?:\\.\\d+)?)\\s*(?<big>万亿|千万|百万|万|亿)?\\s*(?<unit>${UNIT_RE}|[a-zA-Zμ]{1,5}(?![a-zA-Z]))?`,
    // 三十五, 三种, 第三章, 二十万人
    `(?<cord>第)?(?<cn>${CN_NUM}+(?:[万亿]${CN_NUM}*)?)(?<cbig>万|亿)?(?<cunit>${UNIT_RE})?`,
  ].join('|'),
  'gu',
);

const SINGLE_CN_NEEDS_UNIT = /^[二两三四五六七八九十]$/u;
/** 一 is a number only before a measuring unit (一岁, 一倍); 一种, 一个, 一次 are idiom as often. */
const ONE_UNITS = new Set(['岁', '周岁', '倍', '个月', '小时', '分钟', '元', '万元', '亿元', '%', '‰']);

/**
 * The numbers of a text (full-width forms read as half-width). A Chinese numeral counts where it
 * is one: several numeral characters (三十五, 二〇二〇), or one of 二–九/两 followed by a unit or a
 * classifier (三种, 两所), or after 第 (第三章). 一 alone is left out (一种, 进一步, 之一).
 */
export function numbersOf(input: string): NumberToken[] {
  const text = halfWidth(input);
  const out: NumberToken[] = [];
  for (const m of text.matchAll(NUMBER_RE)) {
    const g = m.groups ?? {};
    const start = m.index ?? 0;
    const raw = m[0];
    if (g.pct) {
      const v = /\d/.test(g.pctv!) ? Number(g.pctv) : chineseNumeralValue(g.pctv!);
      if (Number.isNaN(v)) continue;
      out.push(token(input, start, raw.length, 1, v, g.pct === '百' ? '%' : '‰', false));
      continue;
    }
    if (g.d !== undefined) {
      const before = text[start - 1] ?? '';
      let sign = 1;
      let at = start;
      let len = raw.length;
      if (g.sign) {
        // A minus is a sign unless it joins two things (2015-2020, p-3, x-1).
        if (/[A-Za-z_]/u.test(before)) continue;
        if (/[0-9)\]）】]/u.test(before)) {
          at += (g.ord?.length ?? 0) + (g.neg?.length ?? 0) + 1;
          len -= (g.ord?.length ?? 0) + (g.neg?.length ?? 0) + 1;
        } else if (g.sign === '-') sign = -1;
      }
      if (g.neg) sign = -sign;
      // A number glued to Latin letters or digits on its left is part of a term (GPT-4, H2O).
      if (/[A-Za-z_]/u.test(text[at - 1] ?? '') && !g.sign) continue;
      const value = Number(g.d.replace(/,/g, '')) * (g.big ? bigOf(g.big) : 1);
      let unit = (g.unit ?? '').replace(/\s+/g, '');
      if (unit === '°C') unit = '℃';
      out.push(token(input, at, len, sign, value, unit, CLASSIFIERS.includes(unit), Boolean(g.ord)));
      continue;
    }
    if (g.cn) {
      const cn = g.cn;
      const unit = g.cunit ?? '';
      const ordinal = Boolean(g.cord);
      if (
        [...cn].length === 1 &&
        !ordinal &&
        !(SINGLE_CN_NEEDS_UNIT.test(cn) && unit) &&
        !(cn === '一' && ONE_UNITS.has(unit))
      )
        continue;
      // Digits without 十百千 are a number when they read like a year (二〇二〇), not 三一 or 零零.
      if (/^[零〇一二三四五六七八九两]{2,}$/u.test(cn) && ([...cn].length < 3 || /^[零〇]+$/u.test(cn)))
        continue;
      // 一 or 十 leading a word (一般, 十分) and 千/百/万 alone are words, not numbers.
      if (!ordinal && !unit && !/[二三四五六七八九两〇零].*|十[一二三四五六七八九]/u.test(cn)) continue;
      if (/^[千百万亿]/u.test(cn)) continue;
      // 十分 (very), 十足, 百分: adverbs, not ten points.
      if (cn === '十' && unit === '分') continue;
      const v = chineseNumeralValue(cn) * (g.cbig ? bigOf(g.cbig) : 1);
      if (Number.isNaN(v)) continue;
      out.push(token(input, start, raw.length, 1, v, unit, CLASSIFIERS.includes(unit), ordinal));
    }
  }
  return out;
}

function bigOf(big: string): number {
  return big === '万亿' ? 1e12 : big === '千万' ? 1e7 : big === '百万' ? 1e6 : big === '万' ? 1e4 : 1e8;
}

function token(
  input: string,
  start: number,
  length: number,
  sign: number,
  value: number,
  unit: string,
  classifier: boolean,
  ordinal = false,
): NumberToken {
  const raw = input.slice(start, start + length).trimEnd();
  return { text: raw, start, end: start + raw.length, sign, value, unit, classifier, ordinal };
}

/** What two tokens must share: sign, value (to 1e-9), unit unless it is a classifier, ordinal. */
export function numberKey(t: NumberToken): string {
  const value = Number.parseFloat(t.value.toPrecision(12));
  // A classifier, or 年 after a year (2020年 = 2020), may change or go.
  const year = t.unit === '年' && Number.isInteger(value) && value >= 1000 && value <= 2100;
  const unit = t.classifier || year || t.ordinal ? '' : t.unit;
  return `${t.ordinal ? '第' : ''}${t.sign < 0 && value !== 0 ? '-' : ''}${value}${unit}`;
}
