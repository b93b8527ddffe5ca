// `npm start`: the embedded mode in one process. Builds the web app first when its build is
// missing, older than its sources or a development build, then runs the server (API + SPA + job
// worker). The build is always a production one, whatever NODE_ENV the server runs with; the
// development server with hot reload is `npm run dev`.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { webBuildState } from './web-build-state.ts';

const root = resolve(import.meta.dirname, '..');
const MESSAGES = {
  missing: '首次启动：正在构建网页应用…',
  development: '现有网页构建不是生产构建：正在重新构建…',
  stale: '网页源码有更新：正在重新构建…',
} as const;

const state = webBuildState(root);
if (state !== 'fresh') {
  console.log(MESSAGES[state]);
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
