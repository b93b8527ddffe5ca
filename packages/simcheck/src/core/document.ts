/**
 * Fingerprints of one library document, as the indexers store them.
 */
import { hashKgrams, winnow } from './fingerprint.ts';
import { normalizeText } from './normalize.ts';
import type { IndexParams } from './types.ts';

/**
 * The winnowed fingerprints an index stores for a document: hash and normalised position of each
 * selected k-gram, plus the number of normalised characters.
 */
export function getIndexFingerprints(
  text: string,
  params: IndexParams,
): { hashes: Uint32Array; positions: Uint32Array; chars: number } {
  const norm = normalizeText(text);
  const fp = winnow(hashKgrams(norm.codes, params.k), params.minRun - params.k + 1);
  return { hashes: fp.hashes, positions: fp.positions, chars: norm.codes.length };
}
