/**
 * aigc CLI (the contract in issue 14; keep it stable):
 *
 *   aigc detect --json <input.txt|.docx|.doc|.pdf>
 *
 * prints one JSON object {"score": 0-100, "reliable": boolean, "paragraphs": [{"start","end","score"}]}
 * with code-point offsets (end exclusive) into the extracted text (simcheck's extraction, as the
 * upload of a check uses it). Without --json it prints a short Chinese summary. Errors go
 * to stderr; failures exit 1, usage errors exit 2.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type DetectionResult, detectAigc, VERDICT_TEXTS, verdictOf } from '../index.ts';

const USAGE = '用法:\n  aigc detect [--json] <input.txt|.docx|.doc|.pdf>';

class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function toCliResult(r: DetectionResult) {
  return {
    score: r.score,
    reliable: r.reliable,
    paragraphs: r.paragraphs.map((p) => ({ start: p.start, end: p.end, score: p.score })),
  };
}

async function readText(file: string): Promise<string> {
  if (!fs.existsSync(file)) throw new Error(`找不到待检测文件 ${file}`);
  const bytes = new Uint8Array(fs.readFileSync(file));
  const extractor = await import('@kyfw/simcheck/extract');
  try {
    const doc = await extractor.extractDocument(bytes, { fileName: path.basename(file) });
    for (const w of doc.warnings) process.stderr.write(`提示：${w}\n`);
    return doc.text;
  } catch (error) {
    if (error instanceof extractor.ExtractError)
      throw new Error(`无法读取 ${path.basename(file)}：${error.message}`);
    throw error;
  }
}

function formatHuman(r: DetectionResult): string {
  const verdict = verdictOf(r);
  const shown = r.reliable || r.paragraphs.some((p) => p.reliable);
  const lines = [
    `${VERDICT_TEXTS.referenceLabel}：${shown ? r.score.toFixed(1) : '—'}（${verdict}）`,
    `检测字数 ${r.chars}，疑似段落 ${r.paragraphs.filter((p) => p.reliable).length}/${r.paragraphs.length}`,
    ...r.reasons.map((x) => `  · ${x.label}`),
    VERDICT_TEXTS.disclaimer,
  ];
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== 'detect') throw new UsageError(USAGE);
  const json = rest.includes('--json');
  const unknown = rest.filter((a) => a.startsWith('--') && a !== '--json');
  if (unknown.length > 0) throw new UsageError(`未知参数 ${unknown[0]}\n${USAGE}`);
  const files = rest.filter((a) => !a.startsWith('--'));
  if (files.length !== 1) throw new UsageError(USAGE);
  const result = detectAigc(await readText(files[0]!));
  process.stdout.write(json ? `${JSON.stringify(toCliResult(result))}\n` : formatHuman(result));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
