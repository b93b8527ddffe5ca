import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTestSet, type TestSet } from '../generate.ts';
import type { LibraryRecord } from '../lib/io.ts';
import { traditional } from '../lib/obfuscate.ts';
import { cpLength, cpSlice, splitSentences } from '../lib/text.ts';

// Builds a quick test set from ../shared/data once (about 10 s) and checks its ground truth.
const root = mkdtempSync(join(tmpdir(), 'bench-gen-'));
let set: TestSet;
let library: Map<string, string>;
let texts: Map<string, string>;

beforeAll(async () => {
  set = await generateTestSet({ seed: 7, quick: true, outRoot: root });
  library = new Map(
    readFileSync(set.libraryPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const r = JSON.parse(l) as LibraryRecord;
        return [r.id, r.text] as const;
      }),
  );
  texts = new Map(set.docs.map((d) => [d.id, readFileSync(join(set.dir, d.file), 'utf8')]));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const squeeze = (s: string) => s.replace(/\s/g, '');

describe('generated test set', () => {
  it('has every document type, thesis-like documents of 8,000–30,000+ characters, and a 30k speed thesis', () => {
    const types = new Set(set.docs.map((d) => d.type));
    for (const t of [
      'verbatim',
      'synonym',
      'reorder',
      'traditional',
      'fullwidth',
      'pdfbreak',
      'patchwork',
      'quoted',
      'short',
      'clean',
      'mixed',
    ]) {
      expect(types.has(t as never)).toBe(true);
    }
    for (const d of set.docs) {
      const text = texts.get(d.id)!;
      expect(cpLength(text)).toBe(d.chars);
      expect(d.chars).toBeGreaterThanOrEqual(8000);
      expect(d.chars).toBeLessThan(31500);
      expect(text).toMatch(/第1章 绪论\n1\.1 /);
      expect(text).toContain('参考文献\n[1] ');
      expect(cpSlice(text, d.references.start, d.references.start + 4)).toBe('参考文献');
    }
    expect(set.docs.find((d) => d.id === set.speedThesis)!.chars).toBeGreaterThanOrEqual(30000);
    expect(set.docs.filter((d) => d.type === 'clean').every((d) => d.cases.length === 0)).toBe(true);
  });

  it('the library and the suspicious documents share nothing but the planted reuse', () => {
    // unplanned shared 13-character windows (e.g. across two of our own sentences): rare, recorded,
    // and left out of the scoring
    const chars = set.docs.reduce((a, d) => a + d.chars, 0);
    expect(set.docs.reduce((a, d) => a + d.leakChars, 0) / chars).toBeLessThan(0.0005);
  });

  it('every planted case points at its source text', () => {
    for (const d of set.docs) {
      const text = texts.get(d.id)!;
      for (const c of d.cases) {
        const got = cpSlice(text, c.start, c.end);
        const src = cpSlice(library.get(c.sourceId)!, c.sourceStart, c.sourceEnd);
        expect(src.length).toBeGreaterThan(0);
        switch (c.type) {
          case 'verbatim':
          case 'patchwork':
          case 'quoted':
            expect(got).toBe(src);
            break;
          case 'pdfbreak':
            expect(squeeze(got)).toBe(squeeze(src));
            expect(got).toContain('\n');
            break;
          case 'fullwidth':
            expect(got.normalize('NFKC')).toBe(src.normalize('NFKC'));
            expect(got).not.toBe(src);
            break;
          case 'traditional':
            expect(got).toBe(traditional(src));
            break;
          case 'reorder':
            expect(splitSentences(got).sort()).toEqual(splitSentences(src).sort());
            expect(got).not.toBe(src);
            break;
          case 'synonym':
            expect(got).not.toBe(src);
            break;
        }
      }
      for (const s of d.shortOverlaps) {
        expect(s.end - s.start).toBeLessThan(13);
        expect(cpSlice(text, s.start, s.end)).toBe(
          cpSlice(library.get(s.sourceId)!, s.sourceStart, s.sourceEnd),
        );
      }
    }
  });

  it('quoted cases sit inside quotation marks followed by a citation mark', () => {
    const quoted = set.docs.flatMap((d) => d.cases.filter((c) => c.type === 'quoted').map((c) => ({ d, c })));
    expect(quoted.length).toBeGreaterThan(0);
    for (const { d, c } of quoted) {
      const text = texts.get(d.id)!;
      expect(cpSlice(text, c.start - 1, c.start)).toMatch(/[“「『]/);
      expect(cpSlice(text, c.end, c.end + 2)).toMatch(/^[”」』]\[/);
    }
  });

  it('is deterministic: the same seed gives the same documents', async () => {
    const again = await generateTestSet({
      seed: 7,
      quick: true,
      outRoot: mkdtempSync(join(tmpdir(), 'bench-gen2-')),
    });
    expect(again.docs.map((d) => [d.id, d.chars, d.cases])).toEqual(
      set.docs.map((d) => [d.id, d.chars, d.cases]),
    );
    rmSync(join(again.dir, '..'), { recursive: true, force: true });
  }, 120_000);
});
