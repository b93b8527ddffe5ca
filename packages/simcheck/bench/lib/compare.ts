/**
 * Do two engines give the same reports? Used for the two index backends of the real engine (local
 * on-disk and PostgreSQL), which are meant to be interchangeable: same input, same index contents,
 * so every report should be identical, match for match.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutput } from '../engines/types.ts';

export interface OutputComparison {
  /** the engine compared with */
  against: string;
  /** documents (or inputs) in either set */
  total: number;
  identical: number;
  /** ids whose reports differ or that only one side has (the first 20) */
  differing: string[];
}

/** Compare per-document outputs (eval-<engine>.json: id → {output, ms}; the time is ignored). */
export function compareOutputs(
  against: string,
  ours: Record<string, { output: CheckOutput }>,
  theirs: Record<string, { output: CheckOutput }>,
): OutputComparison {
  const ids = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
  const differing: string[] = [];
  let identical = 0;
  for (const id of ids) {
    const a = ours[id]?.output;
    const b = theirs[id]?.output;
    if (a && b && isDeepStrictEqual(a, b)) identical++;
    else differing.push(id);
  }
  return { against, total: ids.length, identical, differing: differing.slice(0, 20) };
}
