/** A piece of a character diff: the same in both, only in the original, or only in the rewrite. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** The part's place in the diff (a stable key). */
  at: number;
}

/**
 * Character diff of two paragraphs by longest common subsequence (paragraphs are a few hundred
 * characters; above 3,000 on either side the whole paragraph counts as changed).
 */
export function diffChars(a: string, b: string): DiffPart[] {
  const x = Array.from(a);
  const y = Array.from(b);
  if (x.length > 3000 || y.length > 3000) {
    return [
      { kind: 'removed', text: a, at: 0 },
      { kind: 'added', text: b, at: 1 },
    ];
  }
  const w = y.length + 1;
  const lcs = new Uint16Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i -= 1)
    for (let j = y.length - 1; j >= 0; j -= 1)
      lcs[i * w + j] =
        x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], ch: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += ch;
    else parts.push({ kind, text: ch, at: parts.length });
  };
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      push('same', x[i]!);
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) {
      push('removed', x[i]!);
      i += 1;
    } else {
      push('added', y[j]!);
      j += 1;
    }
  }
  while (i < x.length) push('removed', x[i++]!);
  while (j < y.length) push('added', y[j++]!);
  return parts;
}
