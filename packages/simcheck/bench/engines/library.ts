/**
 * The real engine in-process through its library API (packages/simcheck/src/index.ts): no process
 * start-up in the timings. SIMCHECK_BENCH_OPTIONS='{"paraphrase":false,…}' passes check options
 * (for tuning runs); the default is the engine's defaultOptions.
 */
import { buildIndex, checkText, type Index, openIndex, prepareEngine, toCliReport } from '../../src/index.ts';
import { type LibraryRecord, readJsonLines } from '../lib/io.ts';
import type { BenchEngine, Checker, CheckOutput } from './types.ts';

export async function* records(path: string) {
  for await (const r of readJsonLines<LibraryRecord>(path))
    yield { id: String(r.id), title: r.title, text: r.text };
}

export function checkOptions(): Record<string, unknown> {
  const raw = process.env.SIMCHECK_BENCH_OPTIONS;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/**
 * Check with the library API and keep what the CLI contract reports (any index backend). Opening
 * includes the engine's one-time start-up work (prepareEngine), as the service does when it starts.
 */
export async function indexChecker(index: Index): Promise<Checker> {
  const options = checkOptions();
  await prepareEngine(options, index);
  return {
    async check(text): Promise<CheckOutput> {
      const r = await checkText(index, text, options);
      return { ...toCliReport(r), ratioExcludingQuotes: r.ratioExcludingQuotes };
    },
    close: () => index.close(),
  };
}

export const libraryEngine: BenchEngine = {
  name: 'simcheck',
  async build(libraryPath, indexDir) {
    const index = await buildIndex(indexDir, records(libraryPath));
    await index.close();
  },
  async open(indexDir): Promise<Checker> {
    return indexChecker(await openIndex(indexDir));
  },
};
