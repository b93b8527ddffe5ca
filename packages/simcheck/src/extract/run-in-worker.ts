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

/**
 * Parses in a worker thread with a heap cap, and terminates it when timeoutMs passes: pdfjs and
 * the OLE reader are synchronous for long stretches, so a timer in the same thread could not
 * interrupt them, and a terminated thread cannot keep burning CPU or memory after we answered.
 * Workers that finished cleanly are kept (unreferenced, so they never hold the process open)
 * and reused; one that failed, timed out or ran out of memory is terminated.
 */
export function runInWorker(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: ExtractLimits,
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
    const timer = setTimeout(
      () => finish(() => reject(new ExtractError('timeout')), false),
      limits.timeoutMs,
    );
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
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
