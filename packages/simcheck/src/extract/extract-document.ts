import { ExtractError } from './errors.ts';
import { resolveLimits } from './limits.ts';
import { detailMessages } from './messages.ts';
import { runInWorker } from './run-in-worker.ts';
import { isRtf, sniffFormat } from './sniff.ts';
import { extractTxt } from './txt.ts';
import type { ExtractedDocument, ExtractLimits } from './types.ts';

/**
 * Extracts the text of an uploaded .txt, .docx, .doc or .pdf, chosen by content (see sniffFormat).
 * Plain text is decoded in the calling thread; the other formats are parsed in a worker thread of
 * a bounded pool (configureExtractionPool), waiting for a free one, and the worker is terminated
 * when `limits.timeoutMs` (waiting included) passes or `opts.signal` fires.
 *
 * @throws ExtractError with kind 'unsupported', 'too-large', 'encrypted', 'scanned', 'broken',
 *   'timeout', 'empty', 'busy' (the pool's queue is full) or 'aborted' (`opts.signal`); its message is Chinese and can be shown to the user.
 */
export async function extractDocument(
  bytes: Uint8Array,
  opts: { fileName?: string; limits?: Partial<ExtractLimits>; signal?: AbortSignal } = {},
): Promise<ExtractedDocument> {
  const limits = resolveLimits(opts.limits);
  if (bytes.length > limits.maxBytes)
    throw new ExtractError('too-large', detailMessages.tooManyBytes(limits.maxBytes));
  if (bytes.length === 0) throw new ExtractError('empty');
  const format = sniffFormat(bytes, opts.fileName);
  if (format === null) {
    throw new ExtractError('unsupported', isRtf(bytes) ? detailMessages.rtf : undefined);
  }
  const document =
    format === 'txt'
      ? extractTxt(bytes, limits.maxChars)
      : await runInWorker(format, bytes, limits, opts.signal);
  if (document.text.trim() === '') throw new ExtractError('empty');
  return document;
}
