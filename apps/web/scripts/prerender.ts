/**
 * After `vite build`: renders the landing page `/` to static HTML (src/prerender/landing.tsx, built
 * for Node by Vite with the same configuration) and writes dist/landing.html — dist/index.html with
 * that markup inside #root and the antd styles it uses in a <style> element. The server sends it for
 * `/` (apps/server/src/plugins/web-app.ts); every other page still gets index.html.
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

/** Renders `/` into `dist`/landing.html, next to the `dist`/index.html that `vite build` wrote. */
export async function prerender(webRoot: string, dist: string): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'kyfw-prerender-'));
  try {
    await build({
      root: webRoot,
      mode: 'production',
      logLevel: 'warn',
      build: {
        ssr: 'src/prerender/landing.tsx',
        outDir,
        emptyOutDir: true,
        manifest: false,
        rolldownOptions: { output: { codeSplitting: false } },
      },
      // Everything in one file for Node: antd's ES modules name files without extensions.
      ssr: { noExternal: true },
    });
    const { renderLanding } = (await import(pathToFileURL(join(outDir, 'landing.js')).href)) as {
      renderLanding: () => Promise<{ html: string; styles: string }>;
    };
    const { html, styles } = await renderLanding();
    const index = readFileSync(join(dist, 'index.html'), 'utf8');
    if (!ROOT.test(index)) throw new Error('dist/index.html has no <div id="root"> placeholder');
    // The page paints from its HTML and stylesheet; the app's scripts are asked for after that first
    // paint (a small deferred loader), so they do not compete with the stylesheet on a slow line.
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(index);
    if (!entry) throw new Error('dist/index.html has no module entry script');
    const preloads = [...index.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
    const boot = bootScript(
      entry[1]!,
      preloads.map((m) => m[1]!),
    );
    const bootFile = `assets/boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
    writeFileSync(join(dist, bootFile), boot);
    // Compressed like every other asset (vite.config.ts, compressAssets, ran before this file existed).
    compressAsset(join(dist, bootFile));
    let page = index.replace(entry[0], '');
    for (const m of preloads) page = page.replace(m[0], '');
    page = page
      .replace(ROOT, () => `<div id="root" data-prerendered>${html}</div>`)
      .replace('</head>', () => `${styles}<script defer src="/${bootFile}"></script></head>`);
    writeFileSync(join(dist, 'landing.html'), page);
    console.log(
      `prerendered / → dist/landing.html (${(html.length / 1024).toFixed(1)} KB markup, ${(styles.length / 1024).toFixed(1)} KB antd styles)`,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The loader of the prerendered page: once the page has painted, the entry's module preloads and the
 * entry itself, as index.html would have them, evaluated chunk by chunk.
 */
function bootScript(entry: string, preloads: readonly string[]): string {
  return `// kyfw: loads the app once the prerendered page has painted (apps/web/scripts/prerender.ts).
(function () {
  var preloads = ${JSON.stringify(preloads)};
  function load() {
    var head = document.head;
    preloads.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      head.appendChild(link);
    });
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
