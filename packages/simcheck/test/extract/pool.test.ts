import { afterEach, describe, expect, it } from 'vitest';
import { configureExtractionPool, extractDocument, extractionPoolStats } from '../../src/extract/index.ts';
import { buildSamplePdf, buildSlowPdf, samplePdfText } from '../fixtures-src/pdf-samples.ts';
import { expectExtractError } from './helpers.ts';

// The pool is per process (per test file here): each test sets it and puts the defaults back.
afterEach(() => configureExtractionPool({ workers: 2, queue: 32 }));

const slow = { limits: { timeoutMs: 60_000 } };

describe('the extraction pool', { timeout: 60_000 }, () => {
  it('parses at most `workers` documents at once, queues the next and refuses past the queue', async () => {
    configureExtractionPool({ workers: 1, queue: 1 });
    const stopFirst = new AbortController();
    const first = extractDocument(buildSlowPdf(300_000), { ...slow, signal: stopFirst.signal });
    const second = extractDocument(buildSamplePdf(), slow);
    expect(extractionPoolStats()).toEqual({ running: 1, waiting: 1 });
    // A third upload gets no new worker and no place in the queue: refused at once, in Chinese.
    const third = await expectExtractError(extractDocument(buildSamplePdf(), slow), 'busy');
    expect(third.message).toBe('当前解析的文件较多，请稍后重新上传');
    // The first one's client goes away: its worker stops and the queued one gets it.
    stopFirst.abort();
    await expectExtractError(first, 'aborted');
    expect((await second).text).toBe(samplePdfText);
    expect(extractionPoolStats()).toEqual({ running: 0, waiting: 0 });
  });

  it('takes an aborted upload out of the queue without parsing it', async () => {
    configureExtractionPool({ workers: 1, queue: 4 });
    const stopFirst = new AbortController();
    const first = extractDocument(buildSlowPdf(300_000), { ...slow, signal: stopFirst.signal });
    const stopQueued = new AbortController();
    const queued = extractDocument(buildSamplePdf(), { ...slow, signal: stopQueued.signal });
    expect(extractionPoolStats().waiting).toBe(1);
    stopQueued.abort();
    await expectExtractError(queued, 'aborted');
    expect(extractionPoolStats()).toEqual({ running: 1, waiting: 0 });
    stopFirst.abort();
    await expectExtractError(first, 'aborted');
    expect(extractionPoolStats()).toEqual({ running: 0, waiting: 0 });
  });

  it('counts the wait in the queue against timeoutMs: no worker in time is "busy", not a silent wait', async () => {
    configureExtractionPool({ workers: 1, queue: 4 });
    const stopFirst = new AbortController();
    const first = extractDocument(buildSlowPdf(300_000), { ...slow, signal: stopFirst.signal });
    await expectExtractError(extractDocument(buildSamplePdf(), { limits: { timeoutMs: 100 } }), 'busy');
    stopFirst.abort();
    await expectExtractError(first, 'aborted');
  });
});
