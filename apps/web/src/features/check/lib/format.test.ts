import { describe, expect, it } from 'vitest';
import { checkFile } from '../components/upload-form';
import { billedUnits, formatCharLimit, formatPercent, freeCheckFor, priceView, rateLevel } from './format';

const undergrad = { unitSize: 1000, minQuantity: 1, pricePerThousand: '2.00' };

describe('price display', () => {
  it('shows the server amount in CNY, the unit price and the billed units (whole 千字)', () => {
    const view = priceView(
      { amount: '24.00', price: '24.00', free: false, freeNote: null, chars: 11_200 },
      undergrad,
    );
    expect(view.due).toBe('¥24.00');
    expect(view.price).toBe('¥24.00');
    expect(view.unitPrice).toBe('2.00 元/千字');
    expect(view.units).toBe(12);
    expect(view.free).toBe(false);
  });

  it('shows ¥0.00 due for a free check and keeps the catalogue price for reference', () => {
    const view = priceView(
      { amount: '0.00', price: '2.00', free: true, freeNote: null, chars: 279 },
      undergrad,
    );
    expect(view.due).toBe('¥0.00');
    expect(view.price).toBe('¥2.00');
    expect(view.units).toBe(1);
    expect(view.free).toBe(true);
  });

  it('passes on why a held free check does not apply', () => {
    const note = '免费查重限 10,000 字以内，本文 12,000 字，需付费检测';
    const view = priceView(
      { amount: '24.00', price: '24.00', free: false, freeNote: note, chars: 12_000 },
      undergrad,
    );
    expect(view.freeNote).toBe(note);
    expect(view.due).toBe('¥24.00');
  });

  it('counts billed units from the minimum quantity up', () => {
    expect(billedUnits(0, undergrad)).toBe(1);
    expect(billedUnits(1000, undergrad)).toBe(1);
    expect(billedUnits(1001, undergrad)).toBe(2);
  });

  it('states limits and rates the way Chinese pages do', () => {
    expect(formatCharLimit(300_000)).toBe('30万');
    expect(formatCharLimit(15_000)).toBe('1.5万');
    expect(formatCharLimit(8000)).toBe('8,000');
    expect(formatPercent(0.35451505)).toBe('35.5%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(null)).toBe('—');
    expect(rateLevel(0.05)).toBe('low');
    expect(rateLevel(0.2)).toBe('mid');
    expect(rateLevel(0.45)).toBe('high');
  });

  it('tells whether the free check applies to the goods and the paper', () => {
    expect(freeCheckFor({ freeAvailable: true, freeMaxChars: 10_000 }, 9_999)).toBe('available');
    expect(freeCheckFor({ freeAvailable: true, freeMaxChars: 10_000 }, 10_001)).toBe('over-cap');
    expect(freeCheckFor({ freeAvailable: false, freeMaxChars: 10_000 })).toBe('not-held');
    expect(freeCheckFor({ freeAvailable: false, freeMaxChars: null })).toBe('none');
  });
});

describe('file checks before upload', () => {
  const max = 30 * 1024 * 1024;
  it('accepts .docx .doc .pdf .txt within the limit and refuses the rest with a Chinese message', () => {
    expect(checkFile({ name: '论文.DOCX', size: 1000 }, max)).toBeNull();
    expect(checkFile({ name: 'a.pdf', size: max }, max)).toBeNull();
    expect(checkFile({ name: 'setup.exe', size: 1000 }, max)).toContain('不支持的文件格式');
    expect(checkFile({ name: 'a.txt', size: 0 }, max)).toContain('空');
    expect(checkFile({ name: 'a.doc', size: max + 1 }, max)).toBe('文件超过 30 MB，请压缩图片或拆分后上传');
  });
});
