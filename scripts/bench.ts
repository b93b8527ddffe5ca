// `npm run bench`: the foundation's figures.
// 1. what Chromium really receives over HTTP when it loads `/` (a production build served by the
//    real server): bytes on the wire per response (Playwright's encoded body sizes, i.e. after
//    br/gzip), their encoding, and the JavaScript among them, against the 250 KB aim; then first
//    and largest contentful paint under Lighthouse's mobile throttling;
// 2. requests per second and p99 latency of GET /home/homeInfo in embedded mode under autocannon,
//    50 connections for 10 s, against the 3,000 req/s aim;
// 3. the web report on an 80,000-character thesis with 600 marks (scripts/bench-report-page.ts);
// 4. main-thread work and JavaScript of `/`, `/check`, that report and the AI writing workspace
//    against their budgets (scripts/bench-web-routes.ts, issue 25); a route over budget fails the run.
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { launchBrowser } from '../apps/e2e/lib/browser.ts';
import { repoRoot, startServer } from '../apps/e2e/lib/server.ts';
import { benchReportPage } from './bench-report-page.ts';
import { benchWebRoutes } from './bench-web-routes.ts';

const ensure = spawnSync('bash', ['scripts/ensure-chromium.sh'], { cwd: repoRoot, stdio: 'inherit' });
if (ensure.status !== 0) process.exit(1);
const build = spawnSync('npm', ['run', '--silent', 'build'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
if (build.status !== 0) process.exit(1);

const server = await startServer({ LOG_LEVEL: 'error' });
try {
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const responses: Promise<{ url: string; type: string; encoding: string; wire: number; raw: number }>[] = [];
  page.on('requestfinished', (request) => {
    responses.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        const headers = (await response?.allHeaders()) ?? {};
        const body = await response?.body().catch(() => null);
        return {
          url: request.url(),
          type: request.resourceType(),
          encoding: headers['content-encoding'] ?? 'identity',
          wire: sizes.responseBodySize + sizes.responseHeadersSize,
          raw: body?.length ?? 0,
        };
      })(),
    );
  });
  await page.goto(`${server.baseUrl}/`, { waitUntil: 'networkidle' });
  const loaded = await Promise.all(responses);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const sum = (list: typeof loaded, key: 'wire' | 'raw') => list.reduce((total, r) => total + r[key], 0);
  const scripts = loaded.filter((r) => r.type === 'script');
  console.log('\nLanding page / as received by Chromium over HTTP (bytes on the wire, headers included)');
  for (const r of loaded.sort((a, b) => b.wire - a.wire)) {
    console.log(
      `  ${kb(r.wire).padStart(9)} on the wire  ${kb(r.raw).padStart(9)} decoded  ${r.encoding.padEnd(8)} ${r.type.padEnd(10)} ${new URL(r.url).pathname}`,
    );
  }
  console.log(
    `  total: ${kb(sum(loaded, 'wire'))} transferred (${kb(sum(loaded, 'raw'))} decoded) in ${loaded.length} responses`,
  );
  console.log(
    `  JavaScript: ${kb(sum(scripts, 'wire'))} transferred (${kb(sum(scripts, 'raw'))} decoded) in ${scripts.length} files; aim < 250 KB: ${(sum(scripts, 'wire') / 1024 / 250).toFixed(2)}x of budget`,
  );
  const uncompressed = loaded.filter((r) => r.encoding === 'identity' && r.raw > 1024 && r.type !== 'image');
  console.log(`  uncompressed text responses over 1 KB: ${uncompressed.length}`);

  // The same load as Lighthouse's mobile run throttles it (simulated slow 4G: 150 ms RTT,
  // 1.6 Mbit/s down, 750 kbit/s up; CPU 4x slower; a 412x823 screen), applied by DevTools in
  // Chromium: first contentful paint and largest contentful paint of `/`, median of three cold loads.
  const paints: { fcp: number; lcp: number }[] = [];
  for (let run = 0; run < 3; run++) {
    const mobile = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      locale: 'zh-CN',
    });
    const tab = await mobile.newPage();
    const cdp = await mobile.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await tab.addInitScript(
      "window.__paint={fcp:0,lcp:0};new PerformanceObserver(l=>{for(const e of l.getEntries())if(e.name==='first-contentful-paint')window.__paint.fcp=e.startTime}).observe({type:'paint',buffered:true});new PerformanceObserver(l=>{for(const e of l.getEntries())window.__paint.lcp=e.startTime}).observe({type:'largest-contentful-paint',buffered:true});",
    );
    await tab.goto(`${server.baseUrl}/`, { waitUntil: 'networkidle' });
    paints.push(await tab.evaluate('window.__paint'));
    await mobile.close();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    '\nLanding page / under Lighthouse-like mobile throttling (slow 4G, CPU 4x), median of 3 cold loads',
  );
  console.log(
    `  first contentful paint ${(median(paints.map((p) => p.fcp)) / 1000).toFixed(2)} s, largest contentful paint ${(median(paints.map((p) => p.lcp)) / 1000).toFixed(2)} s (Lighthouse "good": FCP < 1.8 s, LCP < 2.5 s)`,
  );

  await benchReportPage(browser, server.baseUrl);
  if (!(await benchWebRoutes(browser, [{ label: 'apps/web/dist', baseUrl: server.baseUrl }])))
    process.exitCode = 1;
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
