import { existsSync } from 'node:fs';
import { cliEngine } from './cli.ts';
import { naiveEngine } from './naive.ts';
import type { BenchEngine } from './types.ts';

export const LIBRARY_ENTRY = new URL('../../src/index.ts', import.meta.url).pathname;
export const CLI_ENTRY = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** Which real-engine adapters can run in this working tree right now. */
export function realEngineState(): { library: boolean; cli: boolean } {
  return { library: existsSync(LIBRARY_ENTRY), cli: existsSync(CLI_ENTRY) };
}

export async function getEngine(name: string): Promise<BenchEngine> {
  switch (name) {
    case 'naive':
      return naiveEngine;
    case 'simcheck-cli':
      return cliEngine;
    case 'simcheck': {
      const mod = await import('./library.ts');
      return mod.libraryEngine;
    }
    case 'simcheck-pg': {
      const mod = await import('./pg.ts');
      return mod.pgEngine;
    }
    default:
      throw new Error(`unknown engine ${name}`);
  }
}
