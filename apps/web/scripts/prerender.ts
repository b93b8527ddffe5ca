/**
 * After `vite build`: renders the landing page `/` and the check page `/check` to static HTML
 * (src/prerender/pages.tsx, built for Node by Vite with the same configuration) and writes
 * dist/landing.html and dist/check.html — dist/index.html with that markup inside #root, antd's
 * styles for it (a static sheet, src/prerender/pages.tsx) and a small loader for the app, which
 * then hydrates the markup (src/main.tsx).
 * The server sends them for those two addresses (apps/server/src/plugins/web-app.ts); every other
 * page still gets index.html.
 *
 * Called by scripts/build.ts (`npm run build`) with the folder the bundle was written to.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { compressAsset } from './compress.ts';

/** The loading placeholder of index.html, replaced by the page. */
const ROOT = /<div id="root">[\s\S]*?<\/div>\s*<\/div>/;

/**
 * The pages sent prerendered: their address (without query), the file written beside index.html
 * (the server's table in apps/server/src/plugins/web-app.ts names the same files) and, for a route
 * loaded lazily, its module, whose chunk, styles and imports the page needs.
 */
export const PRERENDERED_PAGES = [
  // The landing page's route is part of the entry (src/app/router.tsx).
  { path: '/', file: 'landing.html', module: null },
  { path: '/check', file: 'check.html', module: 'src/app/routes/check.tsx' },
] as const;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** Renders each of PRERENDERED_PAGES into `dist`, next to the `dist`/index.html that `vite build` wrote. */
export async function prerender(webRoot: string, dist: string): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'kyfw-prerender-'));
  try {
    await build({
      root: webRoot,
      mode: 'production',
      logLevel: 'warn',
      build: {
        ssr: 'src/prerender/pages.tsx',
        outDir,
        emptyOutDir: true,
        manifest: false,
        rolldownOptions: { output: { codeSplitting: false } },
      },
      // Everything in one file for Node: antd's ES modules name files without extensions.
      ssr: { noExternal: true },
    });
    const { renderPage } = (await import(pathToFileURL(join(outDir, 'pages.js')).href)) as {
      renderPage: (path: string) => Promise<{ html: string; styles: string }>;
    };
    const index = readFileSync(join(dist, 'index.html'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    if (!ROOT.test(index)) throw new Error('dist/index.html has no <div id="root"> placeholder');
    // The page paints from its HTML and stylesheet; the app's scripts are asked for after that first
    // paint (a small deferred loader), so they do not compete with the stylesheet on a slow line.
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(index);
    if (!entry) throw new Error('dist/index.html has no module entry script');
    const preloads = [...index.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
    const entryFiles = new Set([entry[1]!, ...preloads.map((m) => m[1]!)]);
    const entryCss = new Set(
      [...index.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map((m) => m[1]!),
    );
    let shell = index.replace(entry[0], '');
    for (const m of preloads) shell = shell.replace(m[0], '');

    for (const target of PRERENDERED_PAGES) {
      const { html, styles } = await renderPage(target.path);
      // A route loaded lazily: its chunk and the chunks it imports are fetched with the entry's, and
      // its stylesheets are in the page from the start (Vite's loader finds them there later).
      const route = target.module ? chunkClosure(manifest, target.module) : { js: [], css: [] };
      const routeJs = route.js.filter((file) => !entryFiles.has(file));
      const routeCss = route.css.filter((file) => !entryCss.has(file));
      const boot = bootScript(
        entry[1]!,
        preloads.map((m) => m[1]!),
        routeJs,
      );
      const bootFile = `assets/boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
      writeFileSync(join(dist, bootFile), boot);
      // Compressed like every other asset (vite.config.ts, compressAssets, ran before this file existed).
      compressAsset(join(dist, bootFile));
      const links = routeCss.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join('');
      const page = shell
        .replace(ROOT, () => `<div id="root" data-prerendered="${target.path}">${html}</div>`)
        .replace('</head>', () => `${links}${styles}<script defer src="/${bootFile}"></script></head>`);
      writeFileSync(join(dist, target.file), page);
      console.log(
        `prerendered ${target.path} → dist/${target.file} (${(html.length / 1024).toFixed(1)} KB markup, ${(styles.length / 1024).toFixed(1)} KB antd styles)`,
      );
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The files (absolute paths) a manifest chunk needs: its JavaScript and stylesheets, with its imports'. */
function chunkClosure(manifest: Record<string, ManifestChunk>, key: string): { js: string[]; css: string[] } {
  if (!manifest[key]) throw new Error(`${key} is not in the Vite manifest`);
  const js: string[] = [];
  const css: string[] = [];
  const seen = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || seen.has(k)) return;
    seen.add(k);
    for (const dep of chunk.imports ?? []) visit(dep);
    for (const file of chunk.css ?? []) if (!css.includes(`/${file}`)) css.push(`/${file}`);
    js.push(`/${chunk.file}`);
  };
  visit(key);
  return { js, css };
}

/** How many modulepreload links the loader adds in one task. */
const PRELOADS_PER_TASK = 6;

/**
 * The loader of a prerendered page: once the page has painted, the entry's module preloads and the
 * entry itself, as index.html would have them, evaluated chunk by chunk; the page's route chunk and
 * its imports are preloaded too (the router evaluates them when it loads the route).
 */
function bootScript(entry: string, preloads: readonly string[], routePreloads: readonly string[]): string {
  return `// kyfw: loads the app once the prerendered page has painted (apps/web/scripts/prerender.ts).
(function () {
  var preloads = ${JSON.stringify(preloads)};
  function load() {
    var head = document.head;
    // The preloads go in a few at a time, a task each: every one starts a request, and /check asks
    // for dozens of files, which in one go made one long task of the page's start.
    var queue = preloads.concat(${JSON.stringify(routePreloads)});
    function preload() {
      queue.splice(0, ${PRELOADS_PER_TASK}).forEach(function (href) {
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        head.appendChild(link);
      });
      if (queue.length > 0) setTimeout(preload, 0);
    }
    preload();
    // The entry's chunks are evaluated one by one, each in a task of its own (React, antd's core,
    // ...), then the entry: the same modules in the same order as one <script type="module">, but
    // the page can answer input between them instead of waiting for one long evaluation.
    var next = 0;
    function step() {
      if (next < preloads.length) {
        var href = preloads[next++];
        import(href).then(later, later);
        return;
      }
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = ${JSON.stringify(entry)};
      head.appendChild(script);
    }
    function later() {
      setTimeout(step, 0);
    }
    step();
  }
  // A click on the painted page before the app has taken it over (a button such as 登录 / 注册) is
  // held, not lost: the element is remembered by its tag, text and place among its likes, and the
  // app clicks the same element once it has rendered (src/app/early-click.ts).
  function early(event) {
    var target = event.target instanceof Element ? event.target.closest('a,button,[role="button"],[role="tab"],[role="menuitem"],input,label') : null;
    var root = document.getElementById('root');
    if (!target || !root || !root.contains(target)) return;
    var text = (target.textContent || '').trim();
    var same = Array.prototype.filter.call(root.querySelectorAll(target.tagName), function (el) {
      return (el.textContent || '').trim() === text;
    });
    window.__kyfwEarlyClick = { tag: target.tagName, text: text, index: same.indexOf(target) };
    event.preventDefault();
    event.stopPropagation();
  }
  document.addEventListener('click', early, true);
  window.__kyfwAppReady = function () {
    document.removeEventListener('click', early, true);
    var held = window.__kyfwEarlyClick;
    window.__kyfwEarlyClick = undefined;
    return held;
  };
  var started = false;
  function start() {
    if (started) return;
    started = true;
    load();
  }
  // After the first contentful paint (the prerendered page is on screen); at the latest after 1.5 s
  // (a browser without paint timing, a tab opened in the background).
  try {
    new PerformanceObserver(function (list) {
      if (list.getEntriesByName('first-contentful-paint').length > 0) setTimeout(start, 0);
    }).observe({ type: 'paint', buffered: true });
  } catch (error) {
    start();
  }
  setTimeout(start, 1500);
})();
`;
}
