// `npm start`: the embedded mode in one process. Builds the web app first when its build is
// missing, older than its sources or a development build, then runs the server (API + SPA + job
// worker). The build is always a production one, whatever NODE_ENV the server runs with; the
// development server with hot reload is `npm run dev`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const webDist = join(root, 'apps/web/dist/index.html');
const webVersion = join(root, 'apps/web/dist/version.json');
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

/** Whether dist/version.json says the build is a production one (false for older builds too). */
function isProductionBuild(): boolean {
  try {
    return (JSON.parse(readFileSync(webVersion, 'utf8')) as { production?: unknown }).production === true;
  } catch {
    return false;
  }
}

const builtAt = existsSync(webDist) ? statSync(webDist).mtimeMs : 0;
const sourcesAt = Math.max(...webSources.map(newestMtime));
const production = builtAt > 0 && isProductionBuild();
if (builtAt < sourcesAt || !production) {
  console.log(
    builtAt === 0
      ? '首次启动：正在构建网页应用…'
      : !production
        ? '现有网页构建不是生产构建：正在重新构建…'
        : '网页源码有更新：正在重新构建…',
  );
  const result = spawnSync('npm', ['run', '--silent', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('网页应用构建失败');
    process.exit(result.status ?? 1);
  }
}

await import('../apps/server/src/main.ts');
