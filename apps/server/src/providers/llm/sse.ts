/**
 * Reads a `text/event-stream` body as Chat Completions streams it: `data: {json}` events separated
 * by blank lines, ending with `data: [DONE]`. Yields each event's data text; comment lines
 * (`: keep-alive`) and other fields are skipped.
 */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.search(/\r?\n\r?\n/);
      while (cut >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
        const data = dataOf(event);
        if (data !== null) yield data;
        cut = buffer.search(/\r?\n\r?\n/);
      }
    }
    buffer += decoder.decode();
    const data = dataOf(buffer);
    if (data !== null) yield data;
  } finally {
    reader.releaseLock();
  }
}

function dataOf(event: string): string | null {
  const lines = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  return lines.length > 0 ? lines.join('\n') : null;
}

/** One SSE event carrying `data` (JSON text or `[DONE]`). */
export function sseEvent(data: string): string {
  return `data: ${data}\n\n`;
}
