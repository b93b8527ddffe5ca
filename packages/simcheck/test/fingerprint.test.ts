import { describe, expect, it } from 'vitest';
import { fingerprint, hashKgrams, winnow } from '../src/core/fingerprint.ts';
import { defaultOptions, getWindow, resolveOptions } from '../src/core/options.ts';

function makeRng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

function randomCodes(rnd: (n: number) => number, length: number, alphabet: number): Uint32Array {
  const out = new Uint32Array(length);
  for (let i = 0; i < length; i++) out[i] = 0x4e00 + rnd(alphabet);
  return out;
}

describe('winnowing (Schleimer et al. 2003)', () => {
  const { k, minRun } = defaultOptions;
  const w = getWindow(defaultOptions);

  it('derives the window from the guarantee threshold: w = t - k + 1', () => {
    expect(w).toBe(minRun - k + 1);
    expect(getWindow(resolveOptions({ k: 5 }))).toBe(9);
    expect(() => resolveOptions({ k: 14 })).toThrow(RangeError);
  });

  it('rolling hashes equal hashes computed from scratch', () => {
    const rnd = makeRng(1);
    const codes = randomCodes(rnd, 200, 3000);
    const rolling = hashKgrams(codes, k);
    for (let i = 0; i < rolling.length; i++) {
      expect(hashKgrams(codes.subarray(i, i + k), k)[0]).toBe(rolling[i]);
    }
  });

  it('guarantees a shared fingerprint for every shared run of t characters (randomised)', () => {
    const rnd = makeRng(7);
    for (let trial = 0; trial < 400; trial++) {
      // Small alphabets make ties and repeated k-grams common, the hard case for winnowing.
      const alphabet = [4, 30, 3000][trial % 3]!;
      const shared = randomCodes(rnd, minRun + rnd(3), alphabet);
      const a = new Uint32Array([
        ...randomCodes(rnd, rnd(80), alphabet),
        ...shared,
        ...randomCodes(rnd, rnd(80), alphabet),
      ]);
      const b = new Uint32Array([
        ...randomCodes(rnd, rnd(80), alphabet),
        ...shared,
        ...randomCodes(rnd, rnd(80), alphabet),
      ]);
      const fa = new Set(fingerprint(a, k, w).hashes);
      const fb = fingerprint(b, k, w).hashes;
      expect(fb.some((h) => fa.has(h))).toBe(true);
    }
  });

  it('selects about 2 / (w + 1) of the k-grams and records each selected position once', () => {
    const rnd = makeRng(3);
    const codes = randomCodes(rnd, 20_000, 5000);
    const fp = fingerprint(codes, k, w);
    const density = fp.hashes.length / (codes.length - k + 1);
    expect(density).toBeGreaterThan(1.6 / (w + 1));
    expect(density).toBeLessThan(2.4 / (w + 1));
    for (let i = 1; i < fp.positions.length; i++)
      expect(fp.positions[i]!).toBeGreaterThan(fp.positions[i - 1]!);
    // Every window of w k-grams contains a selected position.
    for (let i = 1; i < fp.positions.length; i++)
      expect(fp.positions[i]! - fp.positions[i - 1]!).toBeLessThanOrEqual(w);
  });

  it('handles sequences shorter than one window', () => {
    expect(winnow(new Uint32Array(0), w).hashes.length).toBe(0);
    const short = winnow(new Uint32Array([5, 3, 9]), w);
    expect(Array.from(short.hashes)).toEqual([3]);
    expect(Array.from(short.positions)).toEqual([1]);
  });
});
