// `npm run bench`: the foundation's figures.
// 1. gzip size of the JavaScript the landing page really loads (measured in Chromium: every JS
//    response during the load of `/`, gzipped at level 9), against the 250 KB aim;
// 2. requests per second and p99 latency of GET /home/homeInfo in embedded mode under autocannon,
//    50 connections for 10 s, against the 3,000 req/s aim;
// 3. the web report on an 80,000-character thesis with 600 marks (scripts/bench-report-page.ts).
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { launchBrowser } from '../apps/e2e/lib/browser.ts';
import { repoRoot, startServer } from '../apps/e2e/lib/server.ts';
import { benchReportPage } from './bench-report-page.ts';

const ensure = spawnSync('bash', ['scripts/ensure-chromium.sh'], { cwd: repoRoot, stdio: 'inherit' });
if (ensure.status !== 0) process.exit(1);
const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);

const server = await startServer({ LOG_LEVEL: 'error' });
try {
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  page.on('response', async (res) => {
    if (!res.url().endsWith('.js') && !(res.headers()['content-type'] ?? '').includes('javascript')) return;
    const body = await res.body().catch(() => null);
    if (body) scripts.push({ url: res.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  });
  await page.goto(`${server.baseUrl}/`, { waitUntil: 'networkidle' });
  await page.close();
  const totalGzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const totalRaw = scripts.reduce((sum, s) => sum + s.raw, 0);
  console.log('\nLanding page JavaScript (as loaded by Chromium)');
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${new URL(s.url).pathname}`);
  }
  console.log(
    `  total: ${(totalGzip / 1024).toFixed(1)} KB gzip (${(totalRaw / 1024).toFixed(0)} KB raw) in ${scripts.length} files; aim < 250 KB: ${(totalGzip / 1024 / 250).toFixed(2)}x of budget`,
  );
  await benchReportPage(browser, server.baseUrl);
  await browser.close();

  const url = `${server.baseUrl}/kyfw/web/v1/home/homeInfo`;
  await autocannon({ url, connections: 10, duration: 2 }); // warm-up
  const result = await autocannon({ url, connections: 50, duration: 10 });
  const rps = result.requests.average;
  console.log('\nGET /home/homeInfo, embedded mode (PGlite), autocannon 50 connections × 10 s');
  console.log(`  requests/s: ${rps.toFixed(0)} (aim > 3000: ${(rps / 3000).toFixed(2)}x)`);
  console.log(
    `  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  console.log(`  non-2xx: ${result.non2xx}, errors: ${result.errors}, timeouts: ${result.timeouts}`);
  if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
} finally {
  await server.stop();
}
