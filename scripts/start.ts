// `npm start`: the embedded mode in one process. Builds the web app first when its build is
// missing or older than its sources, then runs the server (API + SPA + job worker).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const webDist = join(root, 'apps/web/dist/index.html');
const webSources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'packages/contracts/src',
].map((p) => join(root, p));

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = existsSync(webDist) ? statSync(webDist).mtimeMs : 0;
const sourcesAt = Math.max(...webSources.map(newestMtime));
if (builtAt < sourcesAt) {
  console.log(builtAt === 0 ? '首次启动：正在构建网页应用…' : '网页源码有更新：正在重新构建…');
  const result = spawnSync('npm', ['run', '--silent', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('网页应用构建失败');
    process.exit(result.status ?? 1);
  }
}

await import('../apps/server/src/main.ts');
