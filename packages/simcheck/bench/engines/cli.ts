/**
 * The real engine through its command-line contract (issue 4):
 *   simcheck index --corpus <library.jsonl> --out <indexDir>
 *   simcheck check --index <indexDir> --json <input.txt>
 * Runs `node packages/simcheck/src/cli/main.ts` (what `npm run simcheck` runs, without npm's own
 * start-up of about 0.3 s). DATABASE_URL-style runs pass `--database-url` through SIMCHECK_DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchEngine, Checker, CheckOutput } from './types.ts';

export const CLI_MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

function dbArgs(): string[] {
  const url = process.env.SIMCHECK_DATABASE_URL;
  return url ? ['--database-url', url] : [];
}

export function runCli(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`simcheck ${args[0]} exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

export const cliEngine: BenchEngine = {
  name: 'simcheck-cli',
  async build(libraryPath, indexDir) {
    await runCli(['index', '--corpus', libraryPath, '--out', indexDir, ...dbArgs()]);
  },
  async open(indexDir): Promise<Checker> {
    const tmp = mkdtempSync(join(tmpdir(), 'simcheck-bench-'));
    let n = 0;
    return {
      async check(text) {
        const file = join(tmp, `input-${n++}.txt`);
        writeFileSync(file, text);
        const { stdout } = await runCli(['check', '--index', indexDir, '--json', file, ...dbArgs()]);
        return JSON.parse(stdout) as CheckOutput;
      },
      async close() {
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  },
};
