import { Worker } from 'node:worker_threads';
import { ExtractError, type ExtractErrorKind } from './errors.ts';
import { detailMessages } from './messages.ts';
import type { DocumentFormat, ExtractedDocument, ExtractLimits } from './types.ts';

export interface WorkerRequest {
  format: DocumentFormat;
  buffer: ArrayBuffer;
  limits: ExtractLimits;
}

export type WorkerReply =
  | { ok: true; document: ExtractedDocument }
  | { ok: false; kind: ExtractErrorKind; message: string | undefined; detail: string | undefined };

interface PooledWorker {
  worker: Worker;
  heapMb: number;
  jobs: number;
}

const workerUrl = new URL('./extraction-worker.ts', import.meta.url);
/** Warm workers kept between extractions: loading pdfjs costs about a second, parsing a thesis far less. */
const maxIdleWorkers = 2;
/** A worker is retired after this many jobs, so one document's leftovers cannot accumulate. */
const maxJobsPerWorker = 50;
const idleWorkers: PooledWorker[] = [];

/** How many extractions run at once and how many may wait (configureExtractionPool). */
const pool = { maxRunning: 2, maxWaiting: 32, running: 0 };
const waiting: { grant: () => void; fail: (error: ExtractError) => void }[] = [];

/**
 * Sets the extraction pool: at most `workers` documents are parsed at once (one worker thread each,
 * whatever the number of uploads), at most `queue` more wait for a worker; a further one is refused
 * at once ('busy'). A process calls it once at start; the defaults are 2 and 32.
 */
export function configureExtractionPool(options: { workers?: number; queue?: number }): void {
  if (options.workers !== undefined && options.workers >= 1) pool.maxRunning = Math.floor(options.workers);
  if (options.queue !== undefined && options.queue >= 0) pool.maxWaiting = Math.floor(options.queue);
  while (pool.running < pool.maxRunning && waiting.length > 0) waiting.shift()!.grant();
}

/** Extractions being parsed and waiting now (tests and the health of a busy server). */
export function extractionPoolStats(): { running: number; waiting: number } {
  return { running: pool.running, waiting: waiting.length };
}

/**
 * Parses in a worker thread of the pool: waits for a free worker (refused as 'busy' when the queue
 * is full, or when no worker came free before the deadline), then parses with what is left of
 * `limits.timeoutMs` — the deadline covers waiting and parsing together, so a caller that waits
 * timeoutMs for an answer always gets one. `signal` (the request's client went away) takes the
 * upload out of the queue, or stops its worker, and rejects with 'aborted'.
 */
export async function runInWorker(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: ExtractLimits,
  signal?: AbortSignal,
): Promise<ExtractedDocument> {
  const deadline = Date.now() + limits.timeoutMs;
  await takeSlot(deadline, signal);
  try {
    return await parseInWorker(
      format,
      bytes,
      { ...limits, timeoutMs: Math.max(1, deadline - Date.now()) },
      signal,
    );
  } finally {
    pool.running--;
    if (pool.running < pool.maxRunning && waiting.length > 0) waiting.shift()!.grant();
  }
}

function takeSlot(deadline: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new ExtractError('aborted'));
  if (pool.running < pool.maxRunning && waiting.length === 0) {
    pool.running++;
    return Promise.resolve();
  }
  if (waiting.length >= pool.maxWaiting) return Promise.reject(new ExtractError('busy'));
  return new Promise((resolve, reject) => {
    const entry = {
      grant: () => {
        done();
        pool.running++;
        resolve();
      },
      fail: (error: ExtractError) => {
        done();
        reject(error);
      },
    };
    const onAbort = () => entry.fail(new ExtractError('aborted'));
    const timer = setTimeout(() => entry.fail(new ExtractError('busy')), Math.max(0, deadline - Date.now()));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const at = waiting.indexOf(entry);
      if (at >= 0) waiting.splice(at, 1);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    waiting.push(entry);
  });
}

/**
 * Parses in a worker thread with a heap cap, and terminates it when timeoutMs passes: pdfjs and
 * the OLE reader are synchronous for long stretches, so a timer in the same thread could not
 * interrupt them, and a terminated thread cannot keep burning CPU or memory after we answered.
 * Workers that finished cleanly are kept (unreferenced, so they never hold the process open)
 * and reused; one that failed, timed out, ran out of memory or was aborted is terminated.
 */
function parseInWorker(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: ExtractLimits,
  signal: AbortSignal | undefined,
): Promise<ExtractedDocument> {
  // Copy into a buffer of our own so transferring it never detaches the caller's bytes (and never
  // touches a Buffer's shared pool, which cannot be transferred). Buffer#slice would not copy.
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  const request: WorkerRequest = { format, buffer, limits };
  const pooled = takeIdleWorker(heapLimitMb(limits));
  const { worker } = pooled;

  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      pooled.jobs++;
      if (reusable && pooled.jobs < maxJobsPerWorker && idleWorkers.length < maxIdleWorkers)
        idleWorkers.push(pooled);
      else void worker.terminate();
      outcome();
    };
    const onMessage = (reply: WorkerReply) => {
      finish(() => {
        if (reply.ok) resolve(reply.document);
        else {
          const cause = reply.detail === undefined ? undefined : new Error(reply.detail);
          reject(new ExtractError(reply.kind, reply.message, cause ? { cause } : undefined));
        }
      }, true);
    };
    const onError = (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(
        () =>
          reject(
            outOfMemory
              ? new ExtractError('too-large', detailMessages.outOfMemory, { cause: error })
              : new ExtractError('broken', undefined, { cause: error }),
          ),
        false,
      );
    };
    const onExit = (code: number) => {
      const cause = new Error(`extraction worker exited (${code})`);
      finish(() => reject(new ExtractError('broken', undefined, { cause })), false);
    };
    const onAbort = () => finish(() => reject(new ExtractError('aborted')), false);
    const timer = setTimeout(
      () => finish(() => reject(new ExtractError('timeout')), false),
      limits.timeoutMs,
    );
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(request, [buffer]);
  });
}

function takeIdleWorker(heapMb: number): PooledWorker {
  const index = idleWorkers.findIndex((pooled) => pooled.heapMb === heapMb);
  if (index >= 0) return idleWorkers.splice(index, 1)[0]!;
  const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  worker.unref();
  // An idle worker that dies (it should not) just leaves the pool.
  worker.on('exit', () => {
    const at = idleWorkers.findIndex((pooled) => pooled.worker === worker);
    if (at >= 0) idleWorkers.splice(at, 1);
  });
  return { worker, heapMb, jobs: 0 };
}

/** Heap for one extraction: room for the inflated parts several times over, at least 1 GiB. */
function heapLimitMb(limits: ExtractLimits): number {
  return Math.max(1024, Math.ceil((limits.maxDecompressedBytes * 4) / 1024 / 1024));
}
