/**
 * Stores a percentage that may change often (the engine's progress while it compares) without
 * writing the database at every change: at most one write per `intervalMs` (a change that comes
 * sooner waits for the rest of the interval, and only the latest value is written), one write at a
 * time, and never a value smaller than one written before.
 */
export interface ProgressWriter {
  /** The new percentage; smaller or equal values than the latest are ignored. */
  update(percent: number): void;
  /** Writes the latest value now if it is not written yet (ignoring the interval) and waits for it. */
  flush(): Promise<void>;
  /** Drops a value still waiting and waits for a write under way; later updates are ignored. */
  close(): Promise<void>;
}

export interface ProgressWriterOptions {
  /** The value already stored (nothing at or below it is written). */
  start: number;
  intervalMs: number;
  write: (percent: number) => Promise<void>;
  /** A failed write is reported here and not retried (the next value goes on as usual). */
  onError?: (error: unknown) => void;
}

export function createProgressWriter(options: ProgressWriterOptions): ProgressWriter {
  const { intervalMs } = options;
  let latest = options.start;
  let written = options.start;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> | undefined;
  let closed = false;

  const cancelTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };

  const startWrite = () => {
    const percent = latest;
    written = percent;
    lastWriteAt = Date.now();
    inFlight = Promise.resolve()
      .then(() => options.write(percent))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        inFlight = undefined;
        pump();
      });
  };

  function pump(): void {
    if (closed || inFlight || timer || latest <= written) return;
    const wait = lastWriteAt + intervalMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        pump();
      }, wait);
      return;
    }
    startWrite();
  }

  return {
    update(percent) {
      if (closed || !(percent > latest)) return;
      latest = percent;
      pump();
    },
    async flush() {
      for (;;) {
        cancelTimer();
        if (inFlight) {
          await inFlight;
          continue;
        }
        if (closed || latest <= written) return;
        startWrite();
      }
    },
    async close() {
      closed = true;
      cancelTimer();
      while (inFlight) await inFlight;
    },
  };
}
