import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import { pagePolicy, scriptHash } from './security-headers.ts';

/** Vite puts content-hashed files here: a changed file gets a new name, so they never go stale. */
const HASHED_ASSETS_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, version.json, images): revalidate every time, cheap with ETag/304. */
const REVALIDATE = 'no-cache';

/** What a page's <head> says before any script runs (crawlers, share previews): modules/news/pages.ts. */
export interface PageHeadTags {
  /** 404 for a path no page serves or an unknown article: the app shows its 404 page, crawlers drop it. */
  status: number;
  title: string;
  description: string;
  /** Absolute address of the page, or null for pages not to be indexed. */
  canonical: string | null;
  /** false: noindex (private pages, unknown articles). */
  index: boolean;
  /** Open Graph properties (og:*, article:*), in order. */
  og: readonly (readonly [string, string])[];
}

export interface WebApp {
  /** Sends index.html with the runtime public config injected (history fallback) and the page's head. */
  sendIndex(reply: FastifyReply, head?: PageHeadTags, pathname?: string): Promise<FastifyReply>;
}

const escapeAttr = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * index.html with the page's title, description, canonical address, robots rule and Open Graph
 * tags in place of the build's defaults. Every value is escaped: an article's title cannot close
 * the tag.
 */
export function applyPageHead(html: string, head: PageHeadTags): string {
  const tags = [
    head.canonical ? `<link rel="canonical" href="${escapeAttr(head.canonical)}" />` : '',
    head.index ? '' : '<meta name="robots" content="noindex" />',
    ...head.og.map(
      ([property, content]) => `<meta property="${escapeAttr(property)}" content="${escapeAttr(content)}" />`,
    ),
  ].join('');
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeAttr(head.title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*" \/?>/,
      () => `<meta name="description" content="${escapeAttr(head.description)}" />`,
    )
    .replace('</head>', () => `${tags}</head>`);
}

/**
 * The runtime public config the web app reads from `window.__KYFW_CONFIG__` (apps/web/src/config/env.ts).
 * Everything here is visible to anyone: never put secrets in it.
 */
export function publicConfigOf(
  config: Pick<Config, 'devtoolsDeterrent' | 'providers'> & { demoMode?: boolean },
) {
  return {
    devtoolsDeterrent: config.devtoolsDeterrent,
    sandbox: config.providers === 'sandbox',
    ...(config.demoMode ? { demo: true as const } : {}),
  };
}

/** What the demo mode's banner says (config.demoMode: a production start on sandboxes). */
export const DEMO_BANNER_TEXT =
  '演示站点：短信、微信登录、支付和 AI 均为沙箱模拟，不会真实收款或发送短信，请勿填写真实个人信息或付款。';

/**
 * The demo mode's banner, first in <body> of every page the server sends (outside #root: no page,
 * route or hydration can leave it out; plain markup, so it shows before the app's JavaScript runs).
 */
export function injectDemoBanner(html: string): string {
  const banner =
    `<div id="kyfw-demo-banner" role="note" style="background:#fff7e6;color:#ad4e00;` +
    `border-bottom:1px solid #ffd591;padding:6px 12px;font-size:13px;line-height:1.5;` +
    `text-align:center;word-break:break-word">${DEMO_BANNER_TEXT}</div>`;
  const match = /<body[^>]*>/.exec(html);
  if (!match) return `${banner}${html}`;
  const end = match.index + match[0].length;
  return `${html.slice(0, end)}${banner}${html.slice(end)}`;
}

/**
 * Pages rendered at build time (index.html with the page's markup in #root, apps/web/scripts/prerender.ts),
 * so a phone paints them before the JavaScript arrives (issue 12, Lighthouse): address → file in the
 * build. Other paths get index.html.
 */
const PRERENDERED: Readonly<Record<string, string>> = { '/': 'landing.html', '/check': 'check.html' };
const PRERENDERED_FILES = new Set(Object.values(PRERENDERED).map((file) => `/${file}`));

/** Where index.html wants the config script; before </head> when the marker is missing. */
const CONFIG_MARKER = '<!--kyfw-config-->';

/** The text of the config script (its CSP hash is taken over exactly this). */
export function publicConfigScript(publicConfig: object): string {
  return `window.__KYFW_CONFIG__=${JSON.stringify(publicConfig).replaceAll('<', '\\u003c')}`;
}

/** index.html with the config script injected; `<` escaped so no value can close the script tag. */
export function injectPublicConfig(html: string, publicConfig: object): string {
  const script = `<script>${publicConfigScript(publicConfig)}</script>`;
  if (html.includes(CONFIG_MARKER)) return html.replace(CONFIG_MARKER, () => script);
  if (html.includes('</head>')) return html.replace('</head>', () => `${script}</head>`);
  return `${script}${html}`;
}

/**
 * Serves the built SPA from WEB_DIST_DIR when it exists; returns null otherwise (API-only run).
 * Files are served by @fastify/static; index.html is never served raw but through `sendIndex`, which
 * injects the runtime config (see injectPublicConfig), so one build works with any configuration.
 */
export async function registerWebApp(app: FastifyInstance, config: Config): Promise<WebApp | null> {
  const root = config.webDistDir;
  const indexPath = path.join(root, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ webDistDir: root }, 'web app not built: serving the API only');
    return null;
  }

  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    cacheControl: false,
    // The build writes .br and .gz beside every text asset (apps/web/vite.config.ts, compressAssets):
    // served as they are to browsers that accept them, with Vary: accept-encoding.
    preCompressed: true,
    // index.html goes through sendIndex; directories (/, /assets/) fall through to the history
    // fallback instead of send's 403.
    allowedPath: (pathName) =>
      pathName !== '/index.html' && !PRERENDERED_FILES.has(pathName) && !pathName.endsWith('/'),
    setHeaders: (reply, filePath) => {
      const relative = path.relative(root, filePath).split(path.sep);
      reply.header('Cache-Control', relative[0] === HASHED_ASSETS_DIR ? IMMUTABLE : REVALIDATE);
    },
  });

  const publicConfig = publicConfigOf(config);
  const contentSecurityPolicy = pagePolicy({
    inlineScriptHashes: [scriptHash(publicConfigScript(publicConfig))],
    publicBaseUrl: config.publicBaseUrl,
  });
  // Re-read only when the file changes (a rebuild while running), not on every request.
  const cached = new Map<string, { mtimeMs: number; html: string }>();
  async function load(file: string): Promise<string> {
    const { mtimeMs } = await stat(file);
    const hit = cached.get(file);
    if (hit?.mtimeMs === mtimeMs) return hit.html;
    const withConfig = injectPublicConfig(await readFile(file, 'utf8'), publicConfig);
    const html = config.demoMode ? injectDemoBanner(withConfig) : withConfig;
    cached.set(file, { mtimeMs, html });
    return html;
  }
  /** The page prerendered by the build (apps/web/scripts/prerender.ts) when there is one, else index.html. */
  async function loadPage(pathname: string | undefined): Promise<string> {
    const file = pathname === undefined ? undefined : PRERENDERED[pathname];
    const prerendered = file ? path.join(root, file) : undefined;
    if (prerendered && existsSync(prerendered)) return load(prerendered);
    return load(indexPath);
  }

  return {
    async sendIndex(reply, head, pathname) {
      const page = await loadPage(pathname);
      const html = head ? applyPageHead(page, head) : page;
      return reply
        .code(head?.status ?? 200)
        .header('Cache-Control', REVALIDATE)
        .header('Content-Security-Policy', contentSecurityPolicy)
        .type('text/html; charset=utf-8')
        .send(html);
    },
  };
}

/** Paths that must 404 rather than fall back to index.html: a missing hashed chunk is a real miss. */
export function isAssetPath(url: string): boolean {
  return url.startsWith(`/${HASHED_ASSETS_DIR}/`);
}
