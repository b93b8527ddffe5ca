import { Worker } from 'node:worker_threads';
import type { ReportModel } from '@kyfw/contracts';
import type { HeadingHint, Report, StoredDocument } from '@kyfw/simcheck';
import type { IndexLocation, WorkerTask } from './check-worker.ts';
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

export interface CheckCpuPool {
  compare(
    location: IndexLocation,
    text: string,
    headings: HeadingHint[],
  ): Promise<{ report: Report; sources: StoredDocument[] }>;
  render(model: ReportModel): Promise<RenderedReport>;
  /** Starts the threads and opens the index in them (a start-up nicety; failures are ignored). */
  warm(location: IndexLocation): Promise<void>;
  close(): Promise<void>;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; busy: number; pending: Map<number, Pending> };

const workerUrl = new URL('./check-worker.ts', import.meta.url);

/**
 * A small pool of long-lived check worker threads (check-worker.ts). Tasks go to the least busy
 * thread. A thread that dies fails its tasks (the job retries) and is replaced on the next task.
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
    worker.on(
      'message',
      (reply: {
        id: number;
        ok: boolean;
        result?: unknown;
        error?: { name: string; message: string; code?: string };
      }) => {
        const p = slot.pending.get(reply.id);
        if (!p) return;
        slot.pending.delete(reply.id);
        slot.busy--;
        if (slot.busy === 0) worker.unref();
        if (reply.ok) p.resolve(reply.result);
        else p.reject(new WorkerTaskError(reply.error ?? { name: 'Error', message: 'worker task failed' }));
      },
    );
    const fail = (error: Error) => {
      if (slots[index] === slot) slots[index] = undefined;
      for (const p of slot.pending.values()) p.reject(error);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`check worker exited with code ${code}`)));
    return slot;
  }

  function submit<T>(message: WorkerTask): Promise<T> {
    if (closed) return Promise.reject(new Error('check worker pool is closed'));
    let best = 0;
    for (let i = 0; i < size; i++) {
      if (!slots[i]) slots[i] = spawn(i);
      if (slots[i]!.busy < slots[best]!.busy) best = i;
    }
    const slot = slots[best]!;
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      slot.busy++;
      // Referenced while working, so a process waiting for a check does not exit under it.
      slot.worker.ref();
      slot.worker.postMessage({ id, message });
    });
  }

  return {
    compare: (location, text, headings) => submit({ task: 'compare', location, text, headings }),
    render: (model) => submit({ task: 'render', model }),
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
