import { Worker } from 'node:worker_threads';
import type { AigcReportModel, ReportModel } from '@kyfw/contracts';
import type { CheckProgress, HeadingHint, Report, StoredDocument } from '@kyfw/simcheck';
import type { AigcReportHeader } from './aigc/aigc-report.ts';
import type { IndexLocation, WorkerProgress, WorkerReply, WorkerTask } from './check-worker.ts';
import type { RenderedReport } from './report/render.ts';

/** An error thrown in the worker thread, with its name, message and code preserved. */
export class WorkerTaskError extends Error {
  readonly code: string | undefined;
  readonly originalName: string;

  constructor(error: { name: string; message: string; code?: string }) {
    super(error.message);
    this.name = 'WorkerTaskError';
    this.originalName = error.name;
    this.code = error.code;
  }
}

export interface CompareOptions {
  /**
   * The engine's progress while it compares (stage, share of the whole comparison 0..1, never
   * backwards; the last call before the result is fraction 1). Called on the main thread, in order,
   * before the promise settles; an exception thrown here is ignored.
   */
  onProgress?: (progress: CheckProgress) => void;
  /** Library documents (by number) left out of the comparison: outside the goods' collections. */
  excludeDocNos?: readonly number[];
}

/** A comparison's result: the report, the texts of its sources, and every candidate looked at. */
export interface CompareResult {
  report: Report;
  sources: StoredDocument[];
  /** Every library document the engine fetched as a candidate (id and number). */
  candidates: { id: string; docNo: number }[];
}

export interface CheckCpuPool {
  compare(
    location: IndexLocation,
    text: string,
    headings: HeadingHint[],
    options?: CompareOptions,
  ): Promise<CompareResult>;
  render(model: ReportModel): Promise<RenderedReport>;
  /** AIGC detection of a text (packages/aigc) into its report model, in the thread. */
  detectAigc(input: {
    header: AigcReportHeader;
    text: string;
    totalChars: number;
    warnings: string[];
  }): Promise<AigcReportModel>;
  /** The AIGC report's PDF. */
  renderAigc(model: AigcReportModel): Promise<Uint8Array>;
  /** Starts the threads and opens the index in them (a start-up nicety; failures are ignored). */
  warm(location: IndexLocation): Promise<void>;
  close(): Promise<void>;
}

type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: CheckProgress) => void;
};
type Slot = { worker: Worker; busy: number; pending: Map<number, Pending> };

const workerUrl = new URL('./check-worker.ts', import.meta.url);

/**
 * A small pool of long-lived check worker threads (check-worker.ts). Tasks go to the least busy
 * thread. Messages: the pool posts `{id, message: WorkerTask}`; the thread answers each task once
 * (`WorkerReply`: `{id, ok, result | error}`), and while it compares it also posts the engine's
 * progress as `{kind: 'progress', id, progress}` (`WorkerProgress`), which reaches the caller's
 * `onProgress`. A thread that dies fails its tasks (the job retries) and is replaced on the next task.
 * Threads are unreferenced: an idle pool never keeps the process alive.
 */
export function createCheckCpuPool(options: { size?: number } = {}): CheckCpuPool {
  const size = Math.max(1, options.size ?? 1);
  const slots: (Slot | undefined)[] = new Array(size).fill(undefined);
  let nextId = 1;
  let closed = false;

  function spawn(index: number): Slot {
    const worker = new Worker(workerUrl);
    worker.unref();
    const slot: Slot = { worker, busy: 0, pending: new Map() };
    worker.on('message', (message: WorkerReply | WorkerProgress) => {
      if ('kind' in message) {
        // Progress of a task still running (a late one, after the reply, finds no task).
        try {
          slot.pending.get(message.id)?.onProgress?.(message.progress);
        } catch {
          // The caller's progress display must not break the task.
        }
        return;
      }
      const p = slot.pending.get(message.id);
      if (!p) return;
      slot.pending.delete(message.id);
      slot.busy--;
      if (slot.busy === 0) worker.unref();
      if (message.ok) p.resolve(message.result);
      else p.reject(new WorkerTaskError(message.error));
    });
    const fail = (error: Error) => {
      if (slots[index] === slot) slots[index] = undefined;
      for (const p of slot.pending.values()) p.reject(error);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`check worker exited with code ${code}`)));
    return slot;
  }

  function submit<T>(message: WorkerTask, onProgress?: (progress: CheckProgress) => void): Promise<T> {
    if (closed) return Promise.reject(new Error('check worker pool is closed'));
    let best = 0;
    for (let i = 0; i < size; i++) {
      if (!slots[i]) slots[i] = spawn(i);
      if (slots[i]!.busy < slots[best]!.busy) best = i;
    }
    const slot = slots[best]!;
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      slot.busy++;
      // Referenced while working, so a process waiting for a check does not exit under it.
      slot.worker.ref();
      slot.worker.postMessage({ id, message });
    });
  }

  return {
    compare: (location, text, headings, options = {}) =>
      submit(
        { task: 'compare', location, text, headings, excludeDocNos: [...(options.excludeDocNos ?? [])] },
        options.onProgress,
      ),
    render: (model) => submit({ task: 'render', model }),
    detectAigc: (input) => submit({ task: 'aigcDetect', ...input }),
    renderAigc: (model) => submit({ task: 'aigcRender', model }),
    async warm(location) {
      await Promise.all(
        Array.from({ length: size }, () => submit({ task: 'warm', location }).catch(() => undefined)),
      );
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s?.worker.terminate()));
      slots.fill(undefined);
    },
  };
}
