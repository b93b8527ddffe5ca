/**
 * simcheck CLI (the contract in issue 4; keep it stable):
 *
 *   simcheck index --corpus <library.jsonl[.gz]> --out <indexDir> [--database-url <url>]
 *   simcheck check --index <indexDir> --json <input.txt|.docx|.doc|.pdf> [--database-url <url>]
 *
 * `index` adds to an existing index (incremental). `check --json` prints one JSON object:
 *   {"chars","copiedChars","ratio","matches":[{"start","end","sourceId","sourceStart","sourceEnd","kind"}],
 *    "sections":[{"title","start","end","ratio"}]}
 * with Unicode code point offsets (end exclusive). Progress and errors go to stderr; failures exit 1,
 * usage errors exit 2.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { checkText } from '../core/check.ts';
import { SimcheckError } from '../core/errors.ts';
import type { HeadingHint } from '../core/structure.ts';
import type { Index, LibraryDocument, Report } from '../core/types.ts';
import { openIndex } from '../index-store/local.ts';
import { createPgIndex } from '../index-store/pg.ts';
import { toCliReport } from './contract.ts';

class UsageError extends Error {
  override readonly name = 'UsageError';
}

const USAGE = `用法:
  simcheck index --corpus <library.jsonl[.gz]> --out <indexDir> [--database-url <url>]
  simcheck check --index <indexDir> [--json] <input.txt|.docx|.doc|.pdf> [--database-url <url>]`;

type Args = { command: string; flags: Map<string, string | true>; positional: string[] };

const VALUE_FLAGS = new Set(['--corpus', '--out', '--index', '--database-url']);
const BOOL_FLAGS = new Set(['--json']);

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') throw new UsageError(USAGE);
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (VALUE_FLAGS.has(name)) {
      const value = eq > 0 && a.startsWith('--') ? a.slice(eq + 1) : rest[++i];
      if (value === undefined || value === '') throw new UsageError(`${name} 需要一个值\n${USAGE}`);
      flags.set(name, value);
    } else if (BOOL_FLAGS.has(a)) flags.set(a, true);
    else if (a.startsWith('--')) throw new UsageError(`未知参数 ${a}\n${USAGE}`);
    else positional.push(a);
  }
  return { command, flags, positional };
}

function flag(args: Args, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** Library records from JSON lines: {id, title, text}; `abstract` is accepted for `text` (CSL data). */
async function* readCorpus(file: string, stats: { bad: number }): AsyncGenerator<LibraryDocument> {
  let input: NodeJS.ReadableStream = fs.createReadStream(file);
  if (file.endsWith('.gz')) input = input.pipe(zlib.createGunzip());
  const rl = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  for await (const line of rl) {
    lineNo++;
    if (!line.trim()) continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      stats.bad++;
      process.stderr.write(`第 ${lineNo} 行不是合法的 JSON，已跳过\n`);
      continue;
    }
    const id = rec.id;
    const text = typeof rec.text === 'string' ? rec.text : rec.abstract;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof text !== 'string') {
      stats.bad++;
      process.stderr.write(`第 ${lineNo} 行缺少 id 或 text，已跳过\n`);
      continue;
    }
    yield { id: String(id), title: typeof rec.title === 'string' ? rec.title : null, text };
  }
}

async function openTarget(args: Args, dirFlag: '--out' | '--index', create: boolean): Promise<Index> {
  const url = flag(args, '--database-url');
  if (url) return createPgIndex(url);
  const dir = flag(args, dirFlag);
  if (!dir) throw new UsageError(`缺少 ${dirFlag} <indexDir>（或 --database-url <url>）\n${USAGE}`);
  // One command, one pass over the postings: read them from disk rather than load them whole.
  return openIndex(path.resolve(dir), { create, memoryBytes: 0 });
}

async function runIndex(args: Args): Promise<void> {
  const corpus = flag(args, '--corpus');
  if (!corpus) throw new UsageError(`缺少 --corpus <library.jsonl>\n${USAGE}`);
  if (!fs.existsSync(corpus)) throw new SimcheckError('input_error', `找不到语料文件 ${corpus}`);
  const started = performance.now();
  const index = await openTarget(args, '--out', true);
  try {
    const stats = { bad: 0 };
    const result = await index.addDocuments(readCorpus(corpus, stats), {
      onProgress: (p) =>
        process.stderr.write(
          `已索引 ${p.documents} 篇，${p.characters} 字，${((performance.now() - started) / 1000).toFixed(1)} 秒\n`,
        ),
    });
    const s = await index.stats();
    process.stderr.write(
      `完成：新增 ${result.added} 篇，替换 ${result.replaced} 篇，跳过 ${result.skipped + stats.bad} 行；` +
        `索引共 ${s.documents} 篇，${s.fingerprints} 个指纹，用时 ${((performance.now() - started) / 1000).toFixed(1)} 秒\n`,
    );
  } finally {
    await index.close();
  }
}

type Input = { text: string; headings: HeadingHint[] };

/**
 * Plain text exactly as decoded (the contract's offsets refer to it; line breaks are kept as they
 * are): a BOM decides (UTF-8, UTF-16 LE/BE, GB18030); without one, valid UTF-8 is UTF-8 and anything
 * else is GB18030 (a superset of GBK/GB2312).
 */
export function decodeText(bytes: Uint8Array): string {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0xef, 0xbb, 0xbf])) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (starts([0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (starts([0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (starts([0x84, 0x31, 0x95, 0x33])) return new TextDecoder('gb18030').decode(bytes.subarray(4));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

async function readInput(file: string): Promise<Input> {
  if (!fs.existsSync(file)) throw new SimcheckError('input_error', `找不到待检测文件 ${file}`);
  const bytes = new Uint8Array(fs.readFileSync(file));
  // .txt is decoded here (the contract: offsets into the file as decoded); the extractor, which
  // also loads the PDF and Word readers, is only needed for the other formats.
  if (/\.txt$/i.test(file)) {
    return { text: decodeText(bytes), headings: [] };
  }
  const extractor = await import('../extract/index.ts');
  try {
    const doc = await extractor.extractDocument(bytes, { fileName: path.basename(file) });
    for (const w of doc.warnings) process.stderr.write(`提示：${w}\n`);
    return {
      text: doc.text,
      headings: doc.headings.map((h) => ({ start: h.start, end: h.end, level: h.level, text: h.text })),
    };
  } catch (error) {
    if (error instanceof extractor.ExtractError) {
      throw new SimcheckError('input_error', `无法读取 ${path.basename(file)}：${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

function formatHuman(report: Report): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `总字数 ${report.chars}，重复字数 ${report.copiedChars}`,
    `总文字复制比 ${pct(report.ratio)}，去除引用文献复制比 ${pct(report.ratioExcludingQuotes)}，单篇最大文字复制比 ${pct(report.maxSingleSourceRatio)}`,
    '',
    ...report.sections.map((s) => `  ${s.title}：${pct(s.ratio)}（${s.copiedChars}/${s.chars}）`),
    '',
    ...report.sources.slice(0, 20).map((s) => `  来源 ${s.sourceId} ${s.title ?? ''}：${pct(s.ratio)}`),
  ];
  return `${lines.join('\n')}\n`;
}

async function runCheck(args: Args): Promise<void> {
  const input = args.positional[0];
  if (!input || args.positional.length > 1) throw new UsageError(`需要且只需要一个待检测文件\n${USAGE}`);
  const [doc, index] = await Promise.all([readInput(input), openTarget(args, '--index', false)]);
  try {
    const report = await checkText(index, doc.text, { headings: doc.headings });
    process.stdout.write(
      args.flags.has('--json') ? `${JSON.stringify(toCliReport(report))}\n` : formatHuman(report),
    );
  } finally {
    await index.close();
  }
}

async function main(argv: string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.command === 'index') await runIndex(args);
    else if (args.command === 'check') await runCheck(args);
    else throw new UsageError(`未知命令 ${args.command}\n${USAGE}`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof SimcheckError) {
      process.stderr.write(`错误（${error.code}）：${error.message}\n`);
      return 1;
    }
    process.stderr.write(
      `错误：${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
