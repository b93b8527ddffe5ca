/**
 * Stable LSD radix sort of record indices by a 32-bit key: three 11-bit passes for up to 2^18
 * records (small count tables), two 16-bit passes beyond. Records that share a key keep their
 * input order, which is (docNo, position) order when they were appended that way.
 */
export function sortIndicesByKey(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  let src = new Uint32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  let dst = new Uint32Array(n);
  const [bits, shifts] = n <= 1 << 18 ? [11, [0, 11, 22]] : [16, [0, 16]];
  const size = 1 << bits;
  const mask = size - 1;
  const counts = new Uint32Array(size + 1);
  for (const shift of shifts) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((keys[i]! >>> shift) & mask) + 1]!++;
    for (let b = 1; b <= size; b++) counts[b]! += counts[b - 1]!;
    for (let i = 0; i < n; i++) {
      const idx = src[i]!;
      const b = (keys[idx]! >>> shift) & mask;
      dst[counts[b]!++] = idx;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

/** The values in ascending order, as a new array (through the radix sort above). */
export function sortUint32(values: Uint32Array): Uint32Array {
  const order = sortIndicesByKey(values);
  const out = new Uint32Array(values.length);
  for (let i = 0; i < order.length; i++) out[i] = values[order[i]!]!;
  return out;
}

/** `values` sorted ascending without repeats, in place (small sets of numbers). */
export function sortedUnique(values: number[]): number[] {
  values.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < values.length; i++)
    if (n === 0 || values[i] !== values[n - 1]) values[n++] = values[i]!;
  values.length = n;
  return values;
}

/** A growable Uint32Array. */
export class U32Builder {
  data: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  append(values: Uint32Array): void {
    if (this.length + values.length > this.data.length) this.grow(this.length + values.length);
    this.data.set(values, this.length);
    this.length += values.length;
  }

  fill(v: number, count: number): void {
    if (this.length + count > this.data.length) this.grow(this.length + count);
    this.data.fill(v, this.length, this.length + count);
    this.length += count;
  }

  private grow(min: number): void {
    const next = new Uint32Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}
