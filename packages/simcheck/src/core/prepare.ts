/**
 * One-time start-up work of a checker process, done ahead of its first check: the traditional ->
 * simplified table (built from OpenCC's dictionaries) and the word segmenter with its dictionary
 * (ICU loads it on first use). A long-lived checker (the service's worker threads) calls this when
 * it starts, so that the first student's check is not the one that pays for it.
 */
import { normalizeText } from './normalize.ts';
import { type Options, resolveOptions } from './options.ts';
import { loadSegmenter } from './segment.ts';

export async function prepareEngine(options: Partial<Options> = {}): Promise<void> {
  const opts = resolveOptions(options);
  normalizeText('繁體，準備。');
  if (opts.paraphrase) (await loadSegmenter(opts.segmenter))('预先加载分词词典。');
}
