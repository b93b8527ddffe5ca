// Whether the built web app may be served by `npm start` (scripts/start.ts): it must exist, be a
// production build (dist/version.json `production: true`, written by apps/web/vite.config.ts) and
// be newer than every web source.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type WebBuildState = 'missing' | 'development' | 'stale' | 'fresh';

/** The sources a web build is made of, relative to the repository root. */
export const WEB_SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/scripts',
  'apps/web/public',
  'packages/contracts/src',
] as const;

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function webBuildState(root: string, distDir = join(root, 'apps/web/dist')): WebBuildState {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return 'missing';
  let production = false;
  try {
    const version = JSON.parse(readFileSync(join(distDir, 'version.json'), 'utf8')) as {
      production?: unknown;
    };
    production = version.production === true;
  } catch {
    // no version.json or an older build without the flag: not known to be a production build
  }
  if (!production) return 'development';
  const sourcesAt = Math.max(...WEB_SOURCES.map((p) => newestMtime(join(root, p))));
  return statSync(index).mtimeMs < sourcesAt ? 'stale' : 'fresh';
}
