/**
 * Units of the in-page calculator: the traditional Chinese units of spec §9 plus the SI units they
 * convert to. Each unit's size is kept as an exact fraction of the SI base unit of its dimension
 * (m, s, kg, m³, m²), so 3 尺 is exactly 1 m and 1 斤 exactly 500 g; `siFactor` is that fraction as
 * a number for display.
 */

/** Physical dimensions a unit can measure. */
export const DIMENSIONS = ['length', 'time', 'mass', 'volume', 'area'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Chinese names of the dimensions, for the calculator and error messages. */
export const DIMENSION_NAMES: Readonly<Record<Dimension, string>> = {
  length: '长度',
  time: '时间',
  mass: '质量',
  volume: '体积',
  area: '面积',
};

/** One unit: id, Chinese name, dimension and size as a fraction `ratio[0] / ratio[1]` of the SI base unit. */
export interface UnitDefinition {
  readonly id: string;
  readonly name: string;
  readonly dimension: Dimension;
  /** Exact size in SI base units as [numerator, denominator] of positive integers. */
  readonly ratio: readonly [number, number];
  /** `ratio[0] / ratio[1]`: 1 of this unit in SI base units (m, s, kg, m³, m²). */
  readonly siFactor: number;
  /** True for the traditional units of spec §9, false for SI units. */
  readonly isCustom: boolean;
}

function unit(
  id: string,
  name: string,
  dimension: Dimension,
  ratio: readonly [number, number],
  isCustom: boolean,
): UnitDefinition {
  return Object.freeze({ id, name, dimension, ratio, siFactor: ratio[0] / ratio[1], isCustom });
}

/** Every unit by id. Custom units follow spec §9 (Mu is the spec's 666.67 m², not 2000/3). */
export const UNITS = Object.freeze({
  // Traditional units (spec §9).
  Li: unit('Li', '里', 'length', [500, 1], true),
  Chi: unit('Chi', '尺', 'length', [1, 3], true),
  Cun: unit('Cun', '寸', 'length', [1, 30], true), // 0.1 尺
  Zhang: unit('Zhang', '丈', 'length', [10, 3], true), // 10 尺
  ShiChen: unit('ShiChen', '时辰', 'time', [7200, 1], true), // 2 h
  Jin: unit('Jin', '斤', 'mass', [1, 2], true), // 500 g
  Liang: unit('Liang', '两', 'mass', [1, 20], true), // 50 g
  Qian: unit('Qian', '钱', 'mass', [1, 200], true), // 5 g
  Dou: unit('Dou', '斗', 'volume', [1, 100], true), // 10 L
  Hu: unit('Hu', '斛', 'volume', [1, 10], true), // 10 斗
  Mu: unit('Mu', '亩', 'area', [66_667, 100], true), // 666.67 m²
  Shang: unit('Shang', '垧', 'area', [10_000, 1], true), // 1 hectare
  // SI units.
  m: unit('m', '米', 'length', [1, 1], false),
  km: unit('km', '千米', 'length', [1000, 1], false),
  cm: unit('cm', '厘米', 'length', [1, 100], false),
  s: unit('s', '秒', 'time', [1, 1], false),
  min: unit('min', '分钟', 'time', [60, 1], false),
  h: unit('h', '小时', 'time', [3600, 1], false),
  g: unit('g', '克', 'mass', [1, 1000], false),
  kg: unit('kg', '千克', 'mass', [1, 1], false),
  mL: unit('mL', '毫升', 'volume', [1, 1_000_000], false),
  L: unit('L', '升', 'volume', [1, 1000], false),
  'm²': unit('m²', '平方米', 'area', [1, 1], false),
  hectare: unit('hectare', '公顷', 'area', [10_000, 1], false),
});

export type UnitId = keyof typeof UNITS;

/** Ids of the traditional units of spec §9, in the spec's order. */
export const CUSTOM_UNIT_IDS = [
  'Li',
  'ShiChen',
  'Jin',
  'Liang',
  'Qian',
  'Dou',
  'Hu',
  'Mu',
  'Shang',
  'Chi',
  'Cun',
  'Zhang',
] as const satisfies readonly UnitId[];

/** Thrown by `convertUnit`; the message is Chinese and fit to show in the calculator. */
export class UnitConversionError extends Error {
  override readonly name = 'UnitConversionError';
}

const BY_KEY: ReadonlyMap<string, UnitDefinition> = new Map(
  Object.values(UNITS).flatMap((u) => [
    [u.id, u],
    [u.name, u],
  ]),
);
// ASCII spellings people type in a calculator.
const ALIASES: Readonly<Record<string, UnitId>> = { m2: 'm²', ha: 'hectare' };

/** Finds a unit by id ('Jin', 'kg'), Chinese name ('斤', '千克') or alias ('m2', 'ha'); undefined if unknown. */
export function findUnit(key: string): UnitDefinition | undefined {
  const alias = ALIASES[key];
  return BY_KEY.get(alias ?? key);
}

/** Units of one dimension (all units without argument), custom units first. */
export function listUnits(dimension?: Dimension): UnitDefinition[] {
  return Object.values(UNITS).filter((u) => dimension === undefined || u.dimension === dimension);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Converts `value` between two units of the same dimension: `convertUnit(1, 'Jin', 'g')` is 500,
 * `convertUnit(3, 'Chi', 'm')` is 1, `convertUnit(2, '丈', '寸')` is 200. Units are given as in
 * `findUnit`. The exact fraction is applied with one multiplication and one division, and the result
 * is cut to 15 significant digits so float noise (0.30000000000000004) does not reach the user.
 * @throws UnitConversionError('未知单位：X') for an unknown unit,
 *   UnitConversionError('无法换算：斤（质量）与 米（长度）不是同一类单位') for different dimensions,
 *   UnitConversionError('换算数值必须是有限数字') for NaN or ±Infinity.
 */
export function convertUnit(value: number, from: string, to: string): number {
  const source = findUnit(from);
  if (source === undefined) throw new UnitConversionError(`未知单位：${from}`);
  const target = findUnit(to);
  if (target === undefined) throw new UnitConversionError(`未知单位：${to}`);
  if (source.dimension !== target.dimension) {
    throw new UnitConversionError(
      `无法换算：${source.name}（${DIMENSION_NAMES[source.dimension]}）与 ${target.name}（${DIMENSION_NAMES[target.dimension]}）不是同一类单位`,
    );
  }
  if (!Number.isFinite(value)) throw new UnitConversionError('换算数值必须是有限数字');
  // value * (from / to) with both as fractions, reduced so the integers stay small and exact.
  let numerator = source.ratio[0] * target.ratio[1];
  let denominator = source.ratio[1] * target.ratio[0];
  const divisor = gcd(numerator, denominator);
  numerator /= divisor;
  denominator /= divisor;
  const result = (value * numerator) / denominator;
  return Number(result.toPrecision(15)) || 0;
}
