/**
 * The labelled data and its fixed split (docs/decisions/0008-aigc-detector.md). Every row of
 * ../shared/data/aigc and the CSL abstracts of ../shared/data/corpus is assigned by a hash of a
 * stable key, never by chance:
 *
 *   bucket = fnv1a("aigc-split-v1:" + key) % 100;  bucket < 30 -> test, else development (fold bucket % 5)
 *
 * key: the text itself for the HC3-Plus files, pair_id for agt2025_hc3zh (a human answer and the
 * generated answers to the same question stay together), id for CSL. agt2025_m4gt_zh.jsonl is held out
 * entirely (split "test"). The development rows fit the weights and, through five-fold cross-validation
 * (each fold scored by a model trained on the other four), choose the threshold; test is only measured.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fnv1a } from '../src/core/text.ts';

export type Split = 'dev' | 'test';
export type SourceName = 'hc3_qa' | 'hc3_si' | 'agt_hc3' | 'm4gt' | 'csl';

export interface Sample {
  source: SourceName;
  split: Split;
  /** Cross-validation fold 0–4 of a development row (−1 for test rows). */
  fold: number;
  /** 1 = generated, 0 = human. */
  label: 0 | 1;
  text: string;
}

export const DATA_DIR = path.resolve(import.meta.dirname, '../../../../shared/data');

export function splitOf(key: string): { split: Split; fold: number } {
  const bucket = fnv1a(`aigc-split-v1:${key}`) % 100;
  return bucket < 30 ? { split: 'test', fold: -1 } : { split: 'dev', fold: bucket % 5 };
}

function readLines(file: string): string[] {
  const raw = fs.readFileSync(file);
  const text = file.endsWith('.gz') ? zlib.gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text.split('\n').filter((l) => l.trim() !== '');
}

function labelOf(value: unknown): 0 | 1 {
  const n = Number(value);
  if (n !== 0 && n !== 1) throw new Error(`unexpected label ${String(value)}`);
  return n;
}

/** All labelled samples with their split, in file order. Throws if the staged data is missing. */
export function loadSamples(dataDir = DATA_DIR): Sample[] {
  const out: Sample[] = [];
  const aigc = (f: string) => path.join(dataDir, 'aigc', f);
  for (const f of ['hc3plus_zh_val_hc3_QA.jsonl.gz']) {
    for (const line of readLines(aigc(f))) {
      const r = JSON.parse(line) as { text: string; label: number };
      out.push({ source: 'hc3_qa', ...splitOf(r.text), label: labelOf(r.label), text: r.text });
    }
  }
  for (const f of ['hc3plus_zh_test_hc3_si.jsonl.gz', 'hc3plus_zh_val_hc3_si.jsonl.gz']) {
    for (const line of readLines(aigc(f))) {
      const r = JSON.parse(line) as { text: string; label: number };
      out.push({ source: 'hc3_si', ...splitOf(r.text), label: labelOf(r.label), text: r.text });
    }
  }
  for (const line of readLines(aigc('agt2025_hc3zh.jsonl'))) {
    const r = JSON.parse(line) as { pair_id: string; text: string; label: number };
    out.push({ source: 'agt_hc3', ...splitOf(`agt:${r.pair_id}`), label: labelOf(r.label), text: r.text });
  }
  for (const line of readLines(aigc('agt2025_m4gt_zh.jsonl'))) {
    const r = JSON.parse(line) as { text: string; label: number };
    out.push({ source: 'm4gt', split: 'test', fold: -1, label: labelOf(r.label), text: r.text });
  }
  for (const line of readLines(path.join(dataDir, 'corpus', 'csl_papers.jsonl.gz'))) {
    const r = JSON.parse(line) as { id: number; abstract: string };
    if (!r.abstract) continue;
    out.push({ source: 'csl', ...splitOf(`csl:${r.id}`), label: 0, text: r.abstract });
  }
  return out.filter((s) => s.text.trim() !== '');
}
