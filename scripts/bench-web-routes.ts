// Part of `npm run bench` (issue 25): the main-thread work and the JavaScript of the pages students
// open first — `/`, `/check`, the web report of a large thesis and the AI writing workspace — in
// Chromium against the production build, each against its budget.
//
// Each run is a cold load in a fresh browser context (no cache), unthrottled, recorded with
// Chromium's trace: every task of the page's main thread (the trace's RunTask events of the
// renderer that committed the navigation) from the navigation until the page has been quiet for a
// second after its network went idle. Each task is counted by the CPU time its thread spent in it
// (the trace's thread duration), not by the wall clock: on a shared machine a task's wall time
// includes the time the renderer waited for a core (a task of 2 ms of work measured 83 ms of wall
// time at a load average of 20), its CPU time hardly moves. Printed per route, median of RUNS:
// - main thread: the sum of those tasks' CPU time (ms), and of the tasks after the first
//   contentful paint; the same sum by the wall clock, for reference;
// - "blocking ×4": Σ max(0, 4 × task − 50 ms) over the tasks after the first contentful paint —
//   Lighthouse's total blocking time computed the way its mobile run simulates it (it multiplies the
//   observed task times by its CPU slowdown of 4), so a proxy for its TBT on a quiet machine that
//   does not need Lighthouse's network simulation;
// - the longest task, and JavaScript over HTTP (bytes on the wire after br/gzip, and decoded).
// docs/benchmarks.md has the figures and how they were taken.
//
// Alone: `node scripts/bench-web-routes.ts [--runs N] [--dist DIR …] [--url URL …] [--route landing|check|report|ai …] [--no-build]`
// (`--dist` serves another build, e.g. one of an older commit; given twice, both builds are served
// and their loads alternate, a before/after measured in the same minutes on one machine; `--url`
// measures a server already running, e.g. `node apps/server/src/main.ts` with WEB_DIST_DIR).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../apps/e2e/lib/browser.ts';
import { repoRoot, startServer } from '../apps/e2e/lib/server.ts';
import { syntheticReport } from '../apps/e2e/lib/synthetic-report.ts';
import { logInContext, registerUser, type TestUser } from '../apps/e2e/lib/users.ts';

interface RouteSpec {
  /** For `--route`. */
  id: string;
  name: string;
  path: string;
  /** Logged in (a fresh account), and the report's answer replaced by a large synthetic one. */
  user?: boolean;
  report?: boolean;
  /** Shown once the page is usable. */
  ready: string;
  budget: { jsKb: number; mainMs: number; blocking4xMs: number };
}

const REPORT = syntheticReport(80_000, 600);

/**
 * The budgets (issue 25). JavaScript: KB on the wire (brotli). Main thread: the median sum of the
 * page's main-thread tasks; blocking ×4: the median simulated blocking time after the first paint.
 */
export const ROUTES: RouteSpec[] = [
  {
    id: 'landing',
    name: 'landing /',
    path: '/',
    ready: 'footer',
    budget: { jsKb: 200, mainMs: 400, blocking4xMs: 200 },
  },
  {
    id: 'check',
    name: 'check /check',
    path: '/check',
    ready: '.ck-goods__card',
    // 400 KB until the order view became a lazy chunk (decision 0037): 305 KB since.
    budget: { jsKb: 340, mainMs: 650, blocking4xMs: 300 },
  },
  {
    id: 'report',
    name: 'report (80,000 chars, 600 marks)',
    path: `/check/report/${REPORT.orderId}`,
    user: true,
    report: true,
    ready: '.rt-mark',
    budget: { jsKb: 330, mainMs: 700, blocking4xMs: 900 },
  },
  {
    id: 'ai',
    name: 'AI workspace /ai/dissertation',
    path: '/ai/dissertation',
    user: true,
    ready: '.writing-area',
    budget: { jsKb: 400, mainMs: 650, blocking4xMs: 600 },
  },
];

export interface RouteFigures {
  mainMs: number;
  wallMs: number;
  afterPaintMs: number;
  blocking4xMs: number;
  longestMs: number;
  tasksOver12ms: number;
  jsWire: number;
  jsRaw: number;
  jsFiles: number;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs), where the trace has it. */
  tdur?: number;
  args?: { name?: string; data?: { documentLoaderURL?: string; isLoadingMainFrame?: boolean } };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The page's main-thread tasks from the trace: those of the renderer that navigated to `url`. */
export function mainThreadFigures(events: TraceEvent[], url: string): Omit<RouteFigures, `js${string}`> {
  const navigation = events
    .filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith(url))
    .at(-1);
  if (!navigation) {
    const seen = events
      .filter((e) => e.name === 'navigationStart')
      .map((e) => e.args?.data?.documentLoaderURL);
    throw new Error(`no navigationStart for ${url} in the trace (seen: ${JSON.stringify(seen)})`);
  }
  const { pid, tid } = navigation;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === pid && e.ts >= navigation.ts);
  const paintedAt = fcp?.ts ?? navigation.ts;
  const tasks = events.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === pid && e.tid === tid && e.ts >= navigation.ts,
  );
  const ms = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
  const after = tasks.filter((e) => e.ts >= paintedAt);
  return {
    mainMs: tasks.reduce((sum, e) => sum + ms(e), 0),
    wallMs: tasks.reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0),
    afterPaintMs: after.reduce((sum, e) => sum + ms(e), 0),
    blocking4xMs: after.reduce((sum, e) => sum + Math.max(0, 4 * ms(e) - 50), 0),
    longestMs: tasks.reduce((max, e) => Math.max(max, ms(e)), 0),
    tasksOver12ms: tasks.filter((e) => ms(e) > 12.5).length,
  };
}

async function prepare(context: BrowserContext, baseUrl: string, route: RouteSpec, user?: TestUser) {
  if (route.user && user) await logInContext(context, baseUrl, user);
  if (route.report) {
    await context.route('**/kyfw/web/v1/freeCheck/report', (r) =>
      r.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 0, message: 'success', data: REPORT }),
      }),
    );
  }
}

/** One cold load of `route`, traced; a load whose trace lacks the navigation (seen now and then) is tried again. */
export async function measureOnce(
  browser: Browser,
  baseUrl: string,
  route: RouteSpec,
  user?: TestUser,
  attempt = 1,
): Promise<RouteFigures> {
  try {
    return await tracedLoad(browser, baseUrl, route, user);
  } catch (error) {
    if (attempt >= 3) throw error;
    return measureOnce(browser, baseUrl, route, user, attempt + 1);
  }
}

async function tracedLoad(
  browser: Browser,
  baseUrl: string,
  route: RouteSpec,
  user?: TestUser,
): Promise<RouteFigures> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: 'zh-CN',
    viewport: { width: 412, height: 823 },
  });
  try {
    await prepare(context, baseUrl, route, user);
    const page: Page = await context.newPage();
    const scripts: Promise<{ wire: number; raw: number }>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(
        (async () => {
          const sizes = await request.sizes();
          const body = await (await request.response())?.body().catch(() => null);
          return { wire: sizes.responseBodySize + sizes.responseHeadersSize, raw: body?.length ?? 0 };
        })(),
      );
    });
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        'loading',
      ],
    });
    const url = `${baseUrl}${route.path}`;
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(route.ready).first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const js = await Promise.all(scripts);
    return {
      ...mainThreadFigures(trace.traceEvents, url),
      jsWire: js.reduce((sum, s) => sum + s.wire, 0),
      jsRaw: js.reduce((sum, s) => sum + s.raw, 0),
      jsFiles: js.length,
    };
  } finally {
    await context.close();
  }
}

/** A build served for the bench: its label (printed when there are several) and address. */
export interface BenchTarget {
  label: string;
  baseUrl: string;
}

/**
 * Measures every route RUNS times (after one unreported warm-up load each) on each target and
 * prints medians against the budgets; false if one is over. With several targets (builds of two
 * commits, `--dist A --dist B`) their loads alternate, run by run, so a before and an after are
 * measured in the same minutes under the same load of the machine.
 */
export async function benchWebRoutes(
  browser: Browser,
  targets: BenchTarget[],
  options: { runs?: number; routes?: string[] } = {},
): Promise<boolean> {
  const runs = options.runs ?? 5;
  const routes = options.routes?.length ? ROUTES.filter((r) => options.routes!.includes(r.id)) : ROUTES;
  const users = new Map<string, TestUser | undefined>();
  for (const target of targets) {
    users.set(target.baseUrl, routes.some((r) => r.user) ? await registerUser(target.baseUrl) : undefined);
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  let within = true;
  console.log(
    `\nMain thread and JavaScript per page: cold loads in Chromium, unthrottled, median of ${runs} (load average at start ${loadavg()[0]!.toFixed(2)})`,
  );
  console.log(
    '  page                              main thread (CPU)  after paint  blocking ×4   longest  tasks>12ms   JavaScript on the wire (decoded)',
  );
  for (const route of routes) {
    const all = new Map<string, RouteFigures[]>(targets.map((t) => [t.baseUrl, []]));
    // Warm-up: the server's and the browser's first load of the page.
    for (const target of targets)
      await measureOnce(browser, target.baseUrl, route, users.get(target.baseUrl));
    for (let i = 0; i < runs; i++) {
      for (const target of targets) {
        all
          .get(target.baseUrl)!
          .push(await measureOnce(browser, target.baseUrl, route, users.get(target.baseUrl)));
      }
    }
    for (const target of targets) {
      const figures = all.get(target.baseUrl)!;
      const m = (key: keyof RouteFigures) => median(figures.map((f) => f[key]));
      const over: string[] = [];
      if (m('jsWire') / 1024 > route.budget.jsKb) over.push(`JavaScript > ${route.budget.jsKb} KB`);
      if (m('mainMs') > route.budget.mainMs) over.push(`main thread > ${route.budget.mainMs} ms`);
      if (m('blocking4xMs') > route.budget.blocking4xMs)
        over.push(`blocking ×4 > ${route.budget.blocking4xMs} ms`);
      if (over.length) within = false;
      const name = targets.length > 1 ? `${route.id} [${target.label}]` : route.name;
      console.log(
        [
          `  ${name.padEnd(34)}`,
          `${m('mainMs').toFixed(0)} ms`.padStart(12),
          `${m('afterPaintMs').toFixed(0)} ms`.padStart(13),
          `${m('blocking4xMs').toFixed(0)} ms`.padStart(12),
          `${m('longestMs').toFixed(0)} ms`.padStart(9),
          String(m('tasksOver12ms')).padStart(11),
          `   ${kb(m('jsWire'))} (${kb(m('jsRaw'))}, ${m('jsFiles')} files)`,
        ].join(''),
      );
      console.log(
        `    runs: main ${figures.map((f) => f.mainMs.toFixed(0)).join(', ')} ms; blocking ×4 ${figures.map((f) => f.blocking4xMs.toFixed(0)).join(', ')} ms; main thread by the wall clock ${m('wallMs').toFixed(0)} ms`,
      );
      console.log(
        `    budget: JavaScript ${route.budget.jsKb} KB, main thread (CPU) ${route.budget.mainMs} ms, blocking ×4 ${route.budget.blocking4xMs} ms — ${over.length ? `OVER: ${over.join('; ')}` : 'within'}`,
      );
    }
  }
  console.log(`  (load average at the end ${loadavg()[0]!.toFixed(2)})`);
  return within;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      dist: { type: 'string', multiple: true },
      url: { type: 'string', multiple: true },
      route: { type: 'string', multiple: true },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const dists = values.dist ?? [];
  const urls = values.url ?? [];
  if (dists.length === 0 && urls.length === 0 && !values['no-build']) {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    if (build.status !== 0) process.exit(1);
  }
  const running = urls.map((url) => ({ label: url, server: { baseUrl: url, stop: async () => {} } }));
  const started = await Promise.all(
    (dists.length || urls.length ? dists : [undefined]).map(async (dist) => ({
      label: dist ?? 'apps/web/dist',
      server: await startServer({ LOG_LEVEL: 'error', ...(dist ? { WEB_DIST_DIR: dist } : {}) }),
    })),
  );
  const servers = [...started, ...running];
  try {
    const browser = await launchBrowser();
    const ok = await benchWebRoutes(
      browser,
      servers.map(({ label, server }) => ({ label, baseUrl: server.baseUrl })),
      { runs: Math.max(1, Number.parseInt(values.runs, 10) || 5), routes: values.route },
    );
    await browser.close();
    if (!ok) process.exitCode = 1;
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
  }
}
