/**
 * Word list numbering, enough to put the labels that Word draws ("第1章", "1.1", "一、", "（1）")
 * back into the text: they live in numbering.xml, not in the paragraphs, and a thesis's chapter
 * headings are usually numbered this way. Bullets are left out (they are symbols, not text).
 */

export interface NumberingLevel {
  start: number;
  format: string;
  text: string;
  suffix: 'tab' | 'space' | 'nothing';
  isLegal: boolean;
  styleId?: string;
}

export interface NumberingDefinitions {
  /** abstractNumId -> levels by ilvl */
  abstract: Map<string, Map<number, NumberingLevel>>;
  /** numId -> its abstract list and per-level overrides */
  instances: Map<
    string,
    { abstractId: string; startOverrides: Map<number, number>; levelOverrides: Map<number, NumberingLevel> }
  >;
}

export function emptyNumbering(): NumberingDefinitions {
  return { abstract: new Map(), instances: new Map() };
}

/** Keeps the running counters while paragraphs go by, and renders each numbered paragraph's label. */
export class NumberingCounter {
  private readonly definitions: NumberingDefinitions;
  private readonly counters = new Map<string, number[]>();

  constructor(definitions: NumberingDefinitions) {
    this.definitions = definitions;
  }

  /** The ilvl that a style is linked to inside a list definition (w:lvl/w:pStyle), if any. */
  levelForStyle(numId: string, styleId: string): number | undefined {
    const levels = this.levelsOf(numId);
    if (!levels) return undefined;
    for (const [ilvl, level] of levels) if (level.styleId === styleId) return ilvl;
    return undefined;
  }

  /** Advances the counter for (numId, ilvl) and returns the label with its separator, or '' for none. */
  next(numId: string, ilvl: number): string {
    const instance = this.definitions.instances.get(numId);
    const levels = this.levelsOf(numId);
    if (!instance || !levels) return '';
    const level = levels.get(ilvl);
    if (!level) return '';
    let counters = this.counters.get(numId);
    if (!counters) {
      counters = [];
      this.counters.set(numId, counters);
    }
    const startOf = (i: number) => instance.startOverrides.get(i) ?? levels.get(i)?.start ?? 1;
    counters[ilvl] = counters[ilvl] === undefined ? startOf(ilvl) : counters[ilvl] + 1;
    counters.length = ilvl + 1;
    if (level.format === 'bullet' || level.format === 'none' || level.text === '') return '';
    const label = level.text.replace(/%([1-9])/g, (_whole, digit: string) => {
      const i = Number(digit) - 1;
      const value = counters[i] ?? startOf(i);
      const format = level.isLegal && i !== ilvl ? 'decimal' : (levels.get(i)?.format ?? 'decimal');
      return formatNumber(value, format);
    });
    return label + (level.suffix === 'nothing' ? '' : ' ');
  }

  private levelsOf(numId: string): Map<number, NumberingLevel> | undefined {
    const instance = this.definitions.instances.get(numId);
    if (!instance) return undefined;
    const base = this.definitions.abstract.get(instance.abstractId);
    if (instance.levelOverrides.size === 0) return base;
    const merged = new Map(base);
    for (const [ilvl, level] of instance.levelOverrides) merged.set(ilvl, level);
    return merged;
  }
}

const chineseDigits = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const legalDigits = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const heavenlyStems = ['甲', '乙', '丙', '丁', '戊', '己', '庚', '辛', '壬', '癸'];
const earthlyBranches = ['子', '丑', '寅', '卯', '辰', '巳', '午', '未', '申', '酉', '戌', '亥'];

export function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'decimalZero':
      return value < 10 ? `0${value}` : String(value);
    case 'upperLetter':
      return letters(value).toUpperCase();
    case 'lowerLetter':
      return letters(value);
    case 'upperRoman':
      return roman(value);
    case 'lowerRoman':
      return roman(value).toLowerCase();
    case 'chineseCounting':
    case 'chineseCountingThousand':
    case 'japaneseCounting':
    case 'taiwaneseCounting':
    case 'taiwaneseCountingThousand':
    case 'ideographLegalTraditional':
      return chineseCount(value, chineseDigits, ['', '十', '百', '千']);
    case 'chineseLegalSimplified':
      return chineseCount(value, legalDigits, ['', '拾', '佰', '仟']);
    case 'ideographDigital':
    case 'taiwaneseDigital':
      return [...String(value)].map((d) => chineseDigits[Number(d)]).join('');
    case 'ideographTraditional':
      return value >= 1 && value <= 10 ? heavenlyStems[value - 1]! : String(value);
    case 'ideographZodiac':
      return value >= 1 && value <= 12 ? earthlyBranches[value - 1]! : String(value);
    case 'decimalEnclosedCircle':
    case 'decimalEnclosedCircleChinese':
      return value >= 1 && value <= 20 ? String.fromCodePoint(0x2460 + value - 1) : String(value);
    case 'decimalEnclosedParen':
      return value >= 1 && value <= 20 ? String.fromCodePoint(0x2474 + value - 1) : `(${value})`;
    case 'decimalEnclosedFullstop':
      return value >= 1 && value <= 20 ? String.fromCodePoint(0x2488 + value - 1) : `${value}.`;
    case 'decimalFullWidth':
    case 'decimalFullWidth2':
      return [...String(value)].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('');
    default:
      return String(value);
  }
}

function letters(value: number): string {
  if (value < 1) return String(value);
  // Word repeats the letter: 27 -> aa, 28 -> bb.
  const letter = String.fromCharCode(0x61 + ((value - 1) % 26));
  return letter.repeat(Math.floor((value - 1) / 26) + 1);
}

function roman(value: number): string {
  if (value < 1 || value > 3999) return String(value);
  const table: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let rest = value;
  let out = '';
  for (const [size, symbol] of table) {
    while (rest >= size) {
      out += symbol;
      rest -= size;
    }
  }
  return out;
}

/** 1 -> 一, 10 -> 十, 12 -> 十二, 20 -> 二十, 105 -> 一百零五 (values up to 9999). */
function chineseCount(value: number, digits: string[], units: string[]): string {
  if (value <= 0 || value > 9999) return String(value);
  const parts = [...String(value)].map(Number);
  let out = '';
  let pendingZero = false;
  parts.forEach((digit, i) => {
    const unit = units[parts.length - 1 - i]!;
    if (digit === 0) {
      pendingZero = out !== '';
      return;
    }
    if (pendingZero) out += digits[0] === '〇' ? '零' : digits[0];
    pendingZero = false;
    // 十二, not 一十二, when ten is the leading unit.
    out += digit === 1 && unit === units[1] && i === 0 ? unit : digits[digit]! + unit;
  });
  return out;
}
