import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export const DATA_DIR =
  process.env.KYFW_DATA_DIR ?? new URL('../../../../../shared/data/', import.meta.url).pathname;

/** Stream JSON lines (plain or .gz) without holding the file in memory. */
export async function* readJsonLines<T>(path: string): AsyncGenerator<T> {
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of rl) {
    if (line.trim().length === 0) continue;
    yield JSON.parse(line) as T;
  }
}

/** A line writer that respects back-pressure (for multi-GB synthetic libraries). */
export class LineWriter {
  private readonly stream: WriteStream;
  constructor(path: string) {
    this.stream = createWriteStream(path);
  }
  async write(line: string): Promise<void> {
    if (!this.stream.write(`${line}\n`)) await once(this.stream, 'drain');
  }
  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

export interface CorpusRecord {
  id: number;
  title: string | null;
  abstract: string;
  keywords: string[] | null;
  discipline: string | null;
  category: string | null;
}

export interface LibraryRecord {
  id: string;
  title: string;
  text: string;
}

export async function loadCorpus(): Promise<CorpusRecord[]> {
  const out: CorpusRecord[] = [];
  for await (const r of readJsonLines<CorpusRecord>(`${DATA_DIR}corpus/csl_papers.jsonl.gz`)) out.push(r);
  return out;
}
