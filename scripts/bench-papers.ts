// The benchmarks' papers: the demo library (../shared/data/corpus/csl_papers.jsonl.gz, the CSL
// abstracts `npm run library:import` loads) and a 20,000-character paper made of them, shared by
// bench-check.ts and bench-recheck.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repoRoot } from '../apps/e2e/lib/server.ts';

export const corpusFile = join(repoRoot, '../shared/data/corpus/csl_papers.jsonl.gz');

let abstracts: string[] | undefined;
function corpusAbstracts(): string[] {
  abstracts ??= gunzipSync(readFileSync(corpusFile))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { abstract?: string }).abstract ?? '')
    .filter((text) => text.length > 80);
  return abstracts;
}

/** A 20,000-character paper: chapters of corpus abstracts (copied text) and reordered sentences. */
export function makePaper(seed: number): string {
  const all = corpusAbstracts();
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < 20_000; i += 1) {
    if (i % 8 === 0) parts.push(`第${i / 8 + 1}章 研究内容`);
    const text = all[(seed * 7919 + i * 104_729) % all.length]!;
    const sentences = text.split('。').filter(Boolean);
    parts.push(i % 2 === 0 ? text : `${sentences.reverse().join('。')}。`);
    length += text.length;
  }
  return parts.join('\n');
}
