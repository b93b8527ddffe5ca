import { parentPort } from 'node:worker_threads';
import { ExtractError } from './errors.ts';
import { parseDocument } from './parse-document.ts';
import type { WorkerReply, WorkerRequest } from './run-in-worker.ts';

// Entry of an extraction worker thread: parse one document per message, reply, wait for the next.
// The parent terminates this thread on timeout, which is what makes a stuck parser stop for real.

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  try {
    const document = await parseDocument(request.format, new Uint8Array(request.buffer), request.limits);
    return { ok: true, document };
  } catch (error) {
    if (error instanceof ExtractError) {
      return { ok: false, kind: error.kind, message: error.message, detail: describe(error.cause) };
    }
    return { ok: false, kind: 'broken', message: undefined, detail: describe(error) };
  }
}

function describe(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

parentPort?.on('message', (request: WorkerRequest) => {
  void handle(request).then((reply) => parentPort?.postMessage(reply));
});
