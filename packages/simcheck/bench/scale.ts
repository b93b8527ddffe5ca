/**
 * Synthetic library for the scale run: N documents (default 200,000, about 2,000 characters each,
 * about 400 million characters), streamed to disk as library JSON lines, never held in memory.
 *
 * Made by sampling sentences from the evaluation LIBRARY part of the staged corpus (never from the
 * held-out records the test theses are written from, so a thesis's own writing is not in it and
 * its planted copies are). Copying whole corpus sentences only would put
 * every sentence into the library about 100 times (400M / 3.9M), which no real library looks like
 * and which turns every 13-character window into a stop-word. So most sentences are *sampled from a
 * word-bigram model* of the corpus (jieba words; new sentences with the corpus's vocabulary and
 * local word order), and a share REAL_SHARE of the sentences are real corpus sentences copied as
 * they are (each real sentence then appears about ten times, like much-copied passages do).
 */
import { existsSync, renameSync, statSync } from 'node:fs';
import { cut } from 'jieba-wasm';
import { type LibraryRecord, LineWriter } from './lib/io.ts';
import { createRng } from './lib/prng.ts';
import { cpLength, splitSentences } from './lib/text.ts';

export const SCALE_VERSION = 2;
const REAL_SHARE = 0.1;

export interface ScaleLibrary {
  path: string;
  docs: number;
  chars: number;
  bytes: number;
  generatedMs: number;
}

interface Model {
  words: string[];
  /** CSR successor lists: succ[offsets[w] .. offsets[w+1]) */
  offsets: Uint32Array;
  succ: Uint32Array;
  sentences: string[];
  titles: string[];
}

const BOS = 0;
const EOS = 1;

function buildModel(corpus: LibraryRecord[]): Model {
  const ids = new Map<string, number>([
    ['<s>', BOS],
    ['</s>', EOS],
  ]);
  const words = ['<s>', '</s>'];
  const pairsFrom: number[] = [];
  const pairsTo: number[] = [];
  const sentences: string[] = [];
  for (const r of corpus) {
    for (const s of splitSentences(r.text)) {
      const t = s.trim();
      if (cpLength(t) < 8) continue;
      sentences.push(t);
      let prev = BOS;
      for (const w of cut(t, true)) {
        let id = ids.get(w);
        if (id === undefined) {
          id = words.length;
          ids.set(w, id);
          words.push(w);
        }
        pairsFrom.push(prev);
        pairsTo.push(id);
        prev = id;
      }
      pairsFrom.push(prev);
      pairsTo.push(EOS);
    }
  }
  const offsets = new Uint32Array(words.length + 1);
  for (const f of pairsFrom) offsets[f + 1]!++;
  for (let i = 0; i < words.length; i++) offsets[i + 1]! += offsets[i]!;
  const fill = offsets.slice(0, words.length);
  const succ = new Uint32Array(pairsTo.length);
  for (let i = 0; i < pairsFrom.length; i++) succ[fill[pairsFrom[i]!]!++] = pairsTo[i]!;
  const titles = corpus.map((r) => r.title).filter((t) => t.length > 0);
  return { words, offsets, succ, sentences, titles };
}

export async function generateScaleLibrary(opts: {
  /** the evaluation library (not the held-out records the theses are written from) */
  corpus: LibraryRecord[];
  docs: number;
  seed: number;
  outRoot: string;
  log?: (s: string) => void;
}): Promise<ScaleLibrary> {
  const path = `${opts.outRoot}/scale-${opts.docs}-s${opts.seed}-v${SCALE_VERSION}.jsonl`;
  const metaPath = `${path}.meta.json`;
  if (existsSync(metaPath)) {
    const { readFileSync } = await import('node:fs');
    return JSON.parse(readFileSync(metaPath, 'utf8')) as ScaleLibrary;
  }
  const t0 = performance.now();
  const model = buildModel(opts.corpus);
  opts.log?.(
    `scale: bigram model of ${model.words.length} words, ${model.succ.length} transitions, ${model.sentences.length} real sentences (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const rng = createRng(`scale/${opts.seed}`);
  const { words, offsets, succ, sentences, titles } = model;
  const sampleSentence = (): string => {
    for (;;) {
      let w = BOS;
      let s = '';
      for (let n = 0; n < 60; n++) {
        const a = offsets[w]!;
        const b = offsets[w + 1]!;
        w = succ[a + Math.floor(rng.next() * (b - a))]!;
        if (w === EOS) break;
        s += words[w];
      }
      if (s.length >= 8) return /[。．.！？；]$/u.test(s) ? s : `${s}。`;
    }
  };
  const tmp = `${path}.partial-${process.pid}`;
  const out = new LineWriter(tmp);
  let chars = 0;
  for (let d = 0; d < opts.docs; d++) {
    const target = rng.int(1000, 3000);
    let text = '';
    let len = 0;
    while (len < target) {
      const s = rng.chance(REAL_SHARE) ? rng.pick(sentences) : sampleSentence();
      text += s;
      len += cpLength(s);
    }
    chars += len;
    await out.write(JSON.stringify({ id: `syn-${d}`, title: rng.pick(titles), text }));
    if ((d + 1) % 20000 === 0)
      opts.log?.(`scale: ${d + 1} documents, ${(chars / 1e6).toFixed(0)}M characters`);
  }
  await out.close();
  renameSync(tmp, path);
  const lib: ScaleLibrary = {
    path,
    docs: opts.docs,
    chars,
    bytes: statSync(path).size,
    generatedMs: performance.now() - t0,
  };
  const { writeFileSync } = await import('node:fs');
  writeFileSync(metaPath, JSON.stringify(lib));
  return lib;
}
