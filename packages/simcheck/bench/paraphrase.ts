/**
 * Word-level stage on paraphrase pairs (PAWS-X zh test, LCQMC test; research use only).
 * The engine has no pair-similarity call in its contract, so: every sentence1 becomes a library
 * record, every sentence2 is checked, and a pair is predicted positive when a non-quoted match links
 * sentence2 to its own sentence1. Several sentence2 may share one check (joined by blank lines) to
 * save process start-ups for the CLI; the match offsets attribute each match to its pair.
 */
import { readFileSync } from 'node:fs';
import type { CheckOutput } from './engines/types.ts';
import { DATA_DIR, LineWriter } from './lib/io.ts';
import { cpLength } from './lib/text.ts';
import { type BinaryScores, binaryScores } from './measures.ts';

export interface Pair {
  s1: string;
  s2: string;
  gold: boolean;
}

export interface PairSet {
  name: string;
  file: string;
  pairs: Pair[];
}

export const PAIR_SETS = [
  { name: 'pawsx', file: 'paraphrase/pawsx_zh_test.tsv', header: true, cols: [1, 2, 3] },
  { name: 'lcqmc', file: 'paraphrase/lcqmc_test.tsv', header: false, cols: [0, 1, 2] },
] as const;

export function loadPairSets(limit?: number): PairSet[] {
  return PAIR_SETS.map((def) => {
    const lines = readFileSync(`${DATA_DIR}${def.file}`, 'utf8').split('\n');
    const pairs: Pair[] = [];
    for (const line of def.header ? lines.slice(1) : lines) {
      const cols = line.split('\t');
      const s1 = cols[def.cols[0]]?.trim();
      const s2 = cols[def.cols[1]]?.trim();
      const label = cols[def.cols[2]]?.trim();
      if (!s1 || !s2 || (label !== '0' && label !== '1')) continue;
      pairs.push({ s1, s2, gold: label === '1' });
      if (limit && pairs.length >= limit) break;
    }
    return { name: def.name, file: def.file, pairs };
  });
}

export function pairId(set: PairSet, i: number): string {
  return `${set.name}-${i}`;
}

export async function writePairLibrary(set: PairSet, path: string): Promise<void> {
  const w = new LineWriter(path);
  for (let i = 0; i < set.pairs.length; i++) {
    await w.write(JSON.stringify({ id: pairId(set, i), title: '', text: set.pairs[i]!.s1 }));
  }
  await w.close();
}

const SEP = '\n\n';

export interface PairChunks {
  texts: string[];
  /** per pair: chunk index, start, end (code points) */
  spans: Array<[number, number, number]>;
}

export function chunkPairs(set: PairSet, perChunk: number): PairChunks {
  const texts: string[] = [];
  const spans: Array<[number, number, number]> = [];
  for (let i = 0; i < set.pairs.length; i += perChunk) {
    let text = '';
    let pos = 0;
    for (let j = i; j < Math.min(set.pairs.length, i + perChunk); j++) {
      if (text) {
        text += SEP;
        pos += SEP.length;
      }
      const s2 = set.pairs[j]!.s2;
      spans.push([texts.length, pos, pos + cpLength(s2)]);
      text += s2;
      pos += cpLength(s2);
    }
    texts.push(text);
  }
  return { texts, spans };
}

export interface PairScores {
  name: string;
  pairs: number;
  positives: number;
  /** any non-quoted match to its own sentence1 */
  any: BinaryScores;
  /** only matches typed paraphrase (the word-level stage alone) */
  paraphraseOnly: BinaryScores;
  /** time of all checks of the set (ms), filled in by the runner */
  checkMs?: number;
}

export function scorePairs(set: PairSet, chunks: PairChunks, outputs: CheckOutput[]): PairScores {
  const any: Array<{ gold: boolean; predicted: boolean }> = [];
  const para: Array<{ gold: boolean; predicted: boolean }> = [];
  set.pairs.forEach((p, i) => {
    const [chunk, a, b] = chunks.spans[i]!;
    const own = (outputs[chunk]?.matches ?? []).filter(
      (m) => m.sourceId === pairId(set, i) && m.kind !== 'quoted' && m.start < b && a < m.end,
    );
    any.push({ gold: p.gold, predicted: own.length > 0 });
    para.push({ gold: p.gold, predicted: own.some((m) => m.kind === 'paraphrase') });
  });
  return {
    name: set.name,
    pairs: set.pairs.length,
    positives: set.pairs.filter((p) => p.gold).length,
    any: binaryScores(any),
    paraphraseOnly: binaryScores(para),
  };
}
