import { describe, expect, it } from 'vitest';
import {
  CUSTOM_UNIT_IDS,
  convertUnit,
  DIMENSION_NAMES,
  findUnit,
  listUnits,
  UNITS,
  UnitConversionError,
} from '../src/index.ts';

describe('unit table (spec §9)', () => {
  it('lists the twelve traditional units with Chinese names, dimensions and SI factors', () => {
    const table = CUSTOM_UNIT_IDS.map((id) => [id, UNITS[id].name, UNITS[id].dimension, UNITS[id].siFactor]);
    expect(table).toEqual([
      ['Li', '里', 'length', 500],
      ['ShiChen', '时辰', 'time', 7200],
      ['Jin', '斤', 'mass', 0.5],
      ['Liang', '两', 'mass', 0.05],
      ['Qian', '钱', 'mass', 0.005],
      ['Dou', '斗', 'volume', 0.01],
      ['Hu', '斛', 'volume', 0.1],
      ['Mu', '亩', 'area', 666.67],
      ['Shang', '垧', 'area', 10000],
      ['Chi', '尺', 'length', 1 / 3],
      ['Cun', '寸', 'length', 1 / 30],
      ['Zhang', '丈', 'length', 10 / 3],
    ]);
    expect(CUSTOM_UNIT_IDS.every((id) => UNITS[id].isCustom)).toBe(true);
  });

  it('has the SI units the calculator converts to', () => {
    expect(
      listUnits()
        .filter((u) => !u.isCustom)
        .map((u) => u.id),
    ).toEqual(['m', 'km', 'cm', 's', 'min', 'h', 'g', 'kg', 'mL', 'L', 'm²', 'hectare']);
    expect(listUnits('mass').map((u) => u.id)).toEqual(['Jin', 'Liang', 'Qian', 'g', 'kg']);
    expect(DIMENSION_NAMES.area).toBe('面积');
  });

  it('finds units by id, Chinese name and ASCII alias', () => {
    expect(findUnit('Jin')?.name).toBe('斤');
    expect(findUnit('斤')?.id).toBe('Jin');
    expect(findUnit('m2')?.id).toBe('m²');
    expect(findUnit('ha')?.id).toBe('hectare');
    expect(findUnit('公顷')?.id).toBe('hectare');
    expect(findUnit('jin')).toBeUndefined();
    expect(findUnit('toString')).toBeUndefined();
  });
});

describe('convertUnit', () => {
  it('converts the spec definitions exactly', () => {
    expect(convertUnit(1, 'Li', 'm')).toBe(500);
    expect(convertUnit(1, 'ShiChen', 'h')).toBe(2);
    expect(convertUnit(1, 'Jin', 'g')).toBe(500);
    expect(convertUnit(1, 'Liang', 'g')).toBe(50);
    expect(convertUnit(1, 'Qian', 'g')).toBe(5);
    expect(convertUnit(1, 'Dou', 'L')).toBe(10);
    expect(convertUnit(1, 'Hu', 'Dou')).toBe(10);
    expect(convertUnit(1, 'Mu', 'm²')).toBe(666.67);
    expect(convertUnit(1, 'Shang', 'hectare')).toBe(1);
    expect(convertUnit(3, 'Chi', 'm')).toBe(1);
    expect(convertUnit(1, 'Cun', 'Chi')).toBe(0.1);
    expect(convertUnit(1, 'Zhang', 'Chi')).toBe(10);
  });

  it('converts between traditional units, SI units and mixed', () => {
    expect(convertUnit(2, '丈', '寸')).toBe(200);
    expect(convertUnit(1, 'Jin', 'Liang')).toBe(10);
    expect(convertUnit(1, 'Liang', 'Qian')).toBe(10);
    expect(convertUnit(2, 'kg', 'Jin')).toBe(4);
    expect(convertUnit(1, 'Hu', 'mL')).toBe(100_000);
    expect(convertUnit(1, 'km', 'Li')).toBe(2);
    expect(convertUnit(1, 'm', 'Chi')).toBe(3);
    expect(convertUnit(90, 'min', 'h')).toBe(1.5);
    expect(convertUnit(12, 'ShiChen', 's')).toBe(86_400);
    expect(convertUnit(1, 'hectare', 'Mu')).toBe(14.999925000375); // 10000 / 666.67, 15 significant digits;
    expect(convertUnit(250, 'cm', 'm')).toBe(2.5);
  });

  it('keeps float noise away from the result', () => {
    expect(convertUnit(0.1, 'Li', 'm')).toBe(50);
    expect(convertUnit(0.7, 'Chi', 'Cun')).toBe(7);
    expect(convertUnit(0.3, 'm', 'Chi')).toBe(0.9);
    expect(convertUnit(1, 'Cun', 'm')).toBe(0.0333333333333333);
  });

  it('handles zero, negatives and identity', () => {
    expect(convertUnit(0, 'Jin', 'kg')).toBe(0);
    expect(convertUnit(-3, 'Chi', 'm')).toBe(-1);
    expect(convertUnit(42.5, 'Mu', 'Mu')).toBe(42.5);
  });

  it('throws a Chinese error on mismatched dimensions', () => {
    expect(() => convertUnit(1, 'Jin', 'm')).toThrow(
      new UnitConversionError('无法换算：斤（质量）与 米（长度）不是同一类单位'),
    );
    expect(() => convertUnit(1, 'Mu', 'Li')).toThrow('无法换算：亩（面积）与 里（长度）不是同一类单位');
  });

  it('throws on unknown units and non-finite values', () => {
    expect(() => convertUnit(1, 'furlong', 'm')).toThrow('未知单位：furlong');
    expect(() => convertUnit(1, 'm', '')).toThrow('未知单位：');
    expect(() => convertUnit(Number.NaN, 'm', 'km')).toThrow('换算数值必须是有限数字');
    try {
      convertUnit(1, 'x', 'm');
    } catch (error) {
      expect(error).toBeInstanceOf(UnitConversionError);
      expect((error as Error).name).toBe('UnitConversionError');
    }
    expect.assertions(5);
  });
});
