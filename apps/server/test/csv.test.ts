import { describe, expect, it } from 'vitest';
import { chinaTime, toCsv } from '../src/lib/csv.ts';

// The console's CSV exports as Excel opens them: a BOM, CRLF, quoted cells, formulas kept as text.

describe('toCsv', () => {
  it('starts with a BOM, quotes what needs quoting and keeps formula-like cells as text', () => {
    const csv = toCsv<{ a: string; b: number | null }>(
      [
        { title: '名称', value: (r) => r.a },
        { title: '金额', value: (r) => r.b },
      ],
      [
        { a: '含,逗号"引号"', b: 18 },
        { a: '=HYPERLINK("x")', b: null },
        { a: '-1+2', b: -3 },
        { a: '两行\n文字', b: 0 },
      ],
    );
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.toString('utf8').slice(1)).toBe(
      '名称,金额\r\n"含,逗号""引号""",18\r\n"\'=HYPERLINK(""x"")",\r\n\'-1+2,-3\r\n"两行\n文字",0\r\n',
    );
  });

  it('writes times as China time', () => {
    expect(chinaTime('2026-12-01T16:30:00.000Z')).toBe('2026-12-02 00:30');
    expect(chinaTime(null)).toBe('');
  });
});
