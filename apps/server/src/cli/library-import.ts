/**
 * `npm run library:import -- <file.jsonl[.gz] | folder> [options]` — adds reference documents to
 * the comparison library of the current mode: the local index under DATA_DIR/index (embedded), or
 * the PostgreSQL index when DATABASE_URL is set. Resumable (ids already in the library are
 * skipped), skips duplicate texts (content hash), progress on stderr. See docs/api/check.md.
 *
 * PostgreSQL: into an empty library (or to resume an interrupted first import) the import runs as a
 * bulk load of the engine (`PgIndex.beginBulkLoad`): fingerprint rows go in without their two
 * B-tree indexes, which are built once at the end. Interrupted, the library is left in bulk mode
 * (checks give the same results, but slowly: no index) until the import is run again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LIBRARY_COLLECTION_NAMES } from '@kyfw/contracts';
import { createDb, type DbHandle, migrate } from '@kyfw/db';
import { createPgIndex, type PgIndex } from '@kyfw/simcheck/pg';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { readFolder, readJsonLines } from '../modules/check/library/import-sources.ts';
import { type AddSummary, type LibraryInput, openLibrary } from '../modules/check/library/library.ts';

const USAGE = `用法：npm run library:import -- <文件.jsonl | 文件.jsonl.gz | 文件夹> [选项]

  JSON lines：每行 {"id", "title", "text"（或 "abstract"）, "authors", "year", "source"（或 "journal"）, "discipline"}
  文件夹：递归导入其中的 .docx、.doc、.pdf、.txt（同名 .json 可提供 title/authors/year/source/discipline）

选项：
  --collection <库>    导入到哪个比对库：journal（学术期刊库，默认）、thesis（学位论文库）、web（互联网资源库）
  --id-prefix <前缀>   加在每个 id 前（默认：JSON lines 为“文件名:”，文件夹无前缀）
  --source <来源>      记录未写来源（期刊、学校等）时使用的来源名称（默认：不填）
  --limit <n>          最多读取 n 篇（试导入）
  --batch <n>          每批写入的篇数（默认 5000）

导入到当前模式的比对库：未设置 DATABASE_URL 时为 DATA_DIR/index（默认 ./data/index），
设置 DATABASE_URL 时为 PostgreSQL。已导入的 id 会被跳过，可随时中断后重新运行；正文相同的文档只导入一次。`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Collections an operator imports into (`user` holds only papers users opted in). */
const IMPORT_COLLECTIONS = ['journal', 'thesis', 'web'] as const;

export interface ImportArgs {
  input: string;
  collection?: (typeof IMPORT_COLLECTIONS)[number];
  idPrefix?: string;
  source?: string;
  limit?: number;
  batch?: number;
}

export function parseImportArgs(argv: readonly string[]): ImportArgs {
  const args: Partial<ImportArgs> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${a} 需要一个值\n\n${USAGE}`);
      return v;
    };
    const count = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${a} 须为正整数`);
      return n;
    };
    if (a === '--help' || a === '-h') throw new UsageError(USAGE);
    else if (a === '--id-prefix') args.idPrefix = value();
    else if (a === '--source') args.source = value();
    else if (a === '--collection') {
      const c = value();
      if (!(IMPORT_COLLECTIONS as readonly string[]).includes(c))
        throw new UsageError(`--collection 须为 ${IMPORT_COLLECTIONS.join('、')} 之一`);
      args.collection = c as ImportArgs['collection'];
    } else if (a === '--limit') args.limit = count();
    else if (a === '--batch') args.batch = count();
    else if (a.startsWith('--')) throw new UsageError(`未知选项 ${a}\n\n${USAGE}`);
    else if (args.input) throw new UsageError(`只能指定一个输入\n\n${USAGE}`);
    else args.input = a;
  }
  if (!args.input) throw new UsageError(USAGE);
  return args as ImportArgs;
}

async function* take<T>(
  source: AsyncIterable<T>,
  limit: number | undefined,
  onRead: () => void,
): AsyncGenerator<T> {
  let n = 0;
  for await (const item of source) {
    if (limit !== undefined && n >= limit) return;
    n++;
    onRead();
    yield item;
  }
}

function describe(s: AddSummary): string {
  return `新增 ${s.added} 篇，已存在跳过 ${s.skippedExisting} 篇，重复正文跳过 ${s.skippedDuplicates} 篇，无效 ${s.skippedInvalid} 篇`;
}

/**
 * Runs an import; resolves to the summary. `log` receives progress lines (stderr in the CLI).
 * @throws UsageError for a missing input; errors of the library (a locked index, a bad database).
 */
export async function runLibraryImport(
  args: ImportArgs,
  config: Pick<Config, 'check' | 'databaseUrl'>,
  log: (line: string) => void,
  /** After every batch (the console's import job shows it as progress). */
  onProgress?: (summary: Readonly<AddSummary>) => void,
): Promise<AddSummary> {
  const input = path.resolve(args.input);
  if (!fs.existsSync(input)) throw new UsageError(`找不到 ${args.input}`);
  const isFolder = fs.statSync(input).isDirectory();
  let handle: DbHandle | undefined;
  let bulk: PgIndex | undefined;
  if (config.databaseUrl) {
    handle = await createDb({ databaseUrl: config.databaseUrl, poolSize: 2 });
    await migrate(handle.db);
    // Its own small pool: holds the bulk load's lock for the whole import.
    bulk = await createPgIndex(config.databaseUrl);
    if (await bulk.beginBulkLoad()) {
      log('比对库为空（或上次首次导入未完成）：批量导入，指纹索引在导入结束后一次建立');
    } else {
      await bulk.close();
      bulk = undefined;
    }
  }
  let library: Awaited<ReturnType<typeof openLibrary>>;
  try {
    library = await openLibrary(
      config.databaseUrl && handle
        ? { kind: 'postgres', databaseUrl: config.databaseUrl, db: handle.db }
        : { kind: 'local', dir: config.check.indexDir },
    );
  } catch (error) {
    await bulk?.close();
    await handle?.close();
    throw error;
  }
  const started = Date.now();
  let read = 0;
  let lastPrint = 0;
  try {
    const collection = args.collection ?? 'journal';
    log(`导入 ${args.input} -> 比对库 ${library.describe()}（${LIBRARY_COLLECTION_NAMES[collection]}）`);
    const sourceOptions = {
      idPrefix: args.idPrefix,
      source: args.source,
      collection,
      onSkip: (where: string, reason: string) => log(`跳过 ${where}：${reason}`),
    };
    const docs: AsyncIterable<LibraryInput> = isFolder
      ? readFolder(input, sourceOptions)
      : readJsonLines(input, sourceOptions);
    const summary = await library.add(
      take(docs, args.limit, () => {
        read++;
        const now = Date.now();
        if (now - lastPrint > 2000) {
          lastPrint = now;
          log(`已读取 ${read} 篇…`);
        }
      }),
      {
        batchDocuments: args.batch,
        onProgress: (s) => {
          onProgress?.(s);
          const seconds = (Date.now() - started) / 1000;
          log(
            `已处理 ${s.read} 篇（${describe(s)}），${Math.round(s.read / Math.max(seconds, 0.001))} 篇/秒`,
          );
        },
        onWaitForLock: (pid) => log(`比对库正被进程 ${pid} 写入，等待其完成…`),
      },
    );
    if (bulk) {
      const t = Date.now();
      log('建立指纹索引…');
      await bulk.finishBulkLoad();
      log(`指纹索引已建立，用时 ${((Date.now() - t) / 1000).toFixed(1)} 秒`);
    }
    const total = await library.countDocuments();
    const parts = (await library.composition())
      .map((c) => `${LIBRARY_COLLECTION_NAMES[c.collection]} ${c.documents} 篇`)
      .join('、');
    log(
      `完成：读取 ${summary.read} 篇，${describe(summary)}；比对库现有 ${total} 篇（${parts}），用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒`,
    );
    return summary;
  } catch (error) {
    if (bulk)
      log('导入中断：比对库仍处于批量导入状态（检测结果不变，但较慢），重新运行本命令即可继续并建立索引');
    throw error;
  } finally {
    await library.close();
    await bulk?.close();
    await handle?.close();
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  try {
    await runLibraryImport(parseImportArgs(process.argv.slice(2)), config, (line) =>
      process.stderr.write(`${line}\n`),
    );
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`导入失败：${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

if (import.meta.main) await main();
