/**
 * Part of `npm run bench:engine` (the SPEED part): how long extraction takes to refuse or defuse
 * hostile .docx files — a zip bomb refused from its declared size, one whose headers lie about it
 * (inflating stops at the limit), and a billion-laughs document.xml (entities are not expanded).
 * The files are the tests' (test/fixtures-src/docx.ts); the tests assert what happens, this measures
 * how fast. Aims: 2 s, 2 s and 5 s (they were timed assertions in the tests before).
 */
import { extractDocument } from '../src/extract/index.ts';
import { buildLyingZipBombDocx, buildZipBombDocx, zipParts } from '../test/fixtures-src/docx.ts';

export interface ExtractTiming {
  name: string;
  /** milliseconds of each try */
  ms: number[];
  aimMs: number;
  /** what extraction answered: the error kind, or 'text' */
  outcome: string;
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function billionLaughs(): Uint8Array {
  const entities = Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
  ).join('');
  const xml = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY lol0 "哈">${entities}]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>笑&lol9;声</w:t></w:r></w:p></w:body></w:document>`;
  return zipParts({ 'word/document.xml': xml });
}

export async function measureHostileFiles(repeat: number): Promise<ExtractTiming[]> {
  const files: { name: string; bytes: Uint8Array; aimMs: number }[] = [
    {
      name: 'zip bomb, 300 MiB declared (2 MiB file)',
      bytes: buildZipBombDocx(300 * 1024 * 1024),
      aimMs: 2000,
    },
    {
      name: 'zip bomb, 64 MiB, headers claim 1 KiB',
      bytes: buildLyingZipBombDocx(64 * 1024 * 1024),
      aimMs: 2000,
    },
    { name: 'billion laughs in document.xml', bytes: billionLaughs(), aimMs: 5000 },
  ];
  const out: ExtractTiming[] = [];
  for (const f of files) {
    const ms: number[] = [];
    let outcome = '';
    for (let i = 0; i < repeat; i++) {
      const began = performance.now();
      outcome = await extractDocument(f.bytes).then(
        () => 'text',
        (e: unknown) => `refused (${(e as { kind?: string }).kind ?? 'error'})`,
      );
      ms.push(performance.now() - began);
    }
    out.push({ name: f.name, ms, aimMs: f.aimMs, outcome });
  }
  return out;
}

export function renderHostileFiles(timings: readonly ExtractTiming[]): string {
  const lines = ['EXTRACTION OF HOSTILE FILES — median of the tries (each try listed)'];
  for (const t of timings) {
    const sorted = [...t.ms].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    const ok = median < t.aimMs ? '✓' : '✗';
    lines.push(
      `  ${t.name.padEnd(42)} ${`${median.toFixed(0)} ms`.padStart(8)}  < ${t.aimMs} ms ${ok}  ${t.outcome}  (${t.ms.map((x) => x.toFixed(0)).join(', ')})`,
    );
  }
  return lines.join('\n');
}
