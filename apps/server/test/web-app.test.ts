import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { API_PREFIX, ErrorCode, pageRoutes } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectPublicConfig, publicConfigOf } from '../src/plugins/web-app.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <title>科研服务网</title>
    <!--kyfw-config-->
    <script type="module" src="/assets/index-Ab12Cd34.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

async function makeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kyfw-web-'));
  await mkdir(path.join(dir, 'assets'));
  await mkdir(path.join(dir, 'images'));
  await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(dir, 'version.json'), '{"buildId":"b1"}');
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("app")');
  await writeFile(path.join(dir, 'images', 'banner.png'), 'png');
  return dir;
}

describe('serving the built web app', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = await makeWebDist();
    t = await buildTestApp({ env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves index.html at / with the runtime config injected and no-cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(
      '<script>window.__KYFW_CONFIG__={"devtoolsDeterrent":true,"sandbox":true}</script>',
    );
    expect(res.body).not.toContain('<!--kyfw-config-->');
  });

  it('falls back to index.html for client-side routes, however deep', async () => {
    for (const url of [
      '/user/info',
      '/industryNews/guide/2026/read-check-report',
      '/ai/dissertation',
      '/login/forgotPassword?x=1',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('__KYFW_CONFIG__');
    }
  });

  it('answers every page of the web app (packages/contracts/src/routes.ts) with 200', async () => {
    const samples = pageRoutes.map((r) => r.path.replace(':orderId', '42').replace(/\/\*$/, ''));
    for (const url of [...samples, '/user/order/commission', '/admin/staff', '/AboutUs', '/check/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('__KYFW_CONFIG__');
    }
  });

  it('answers a path that is no page with 404 and the app (which shows its 404 page)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/check' });
    for (const url of ['/no-such-page', '/check/nothing', '/user/order/check/extra', '/aboutUs/x?y=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain('<title>页面不存在 - 科研服务网</title>');
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
      // The same app as any page: the router renders "页面不存在" for the path.
      expect(res.body, url).toContain('<script type="module" src="/assets/index-Ab12Cd34.js"></script>');
      expect(res.body.slice(res.body.indexOf('<body>')), url).toBe(
        page.body.slice(page.body.indexOf('<body>')),
      );
    }
  });

  it('keeps the account area and the console out of search engines, and the public pages in', async () => {
    for (const url of [
      '/user/info',
      '/user/order/write',
      '/admin',
      '/admin/news',
      '/login',
      '/check/report/7',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
    }
    for (const url of ['/', '/check', '/ai/proposal', '/industryNews']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('noindex');
    }
  });

  it('sends / and /check prerendered when the build wrote landing.html and check.html, every other page index.html', async () => {
    const landing = INDEX_HTML.replace('<div id="root"></div>', '<div id="root"><h1>论文查重</h1></div>');
    const check = INDEX_HTML.replace('<div id="root"></div>', '<div id="root"><h1>上传论文</h1></div>');
    await writeFile(path.join(dist, 'landing.html'), landing);
    await writeFile(path.join(dist, 'check.html'), check);
    try {
      const home = await t.app.inject({ method: 'GET', url: '/' });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain('<div id="root"><h1>论文查重</h1></div>');
      expect(home.body).toContain('__KYFW_CONFIG__');
      expect(home.headers['content-security-policy']).toContain("script-src 'self'");
      const checkPage = await t.app.inject({ method: 'GET', url: '/check?orderId=x' });
      expect(checkPage.body).toContain('<div id="root"><h1>上传论文</h1></div>');
      expect(checkPage.body).toContain('__KYFW_CONFIG__');
      const other = await t.app.inject({ method: 'GET', url: '/check/verify' });
      expect(other.body).toContain('<div id="root"></div>');
      // Not as files of their own.
      expect((await t.app.inject({ method: 'GET', url: '/landing.html' })).body).not.toContain('<h1>');
      expect((await t.app.inject({ method: 'GET', url: '/check.html' })).body).not.toContain('<h1>');
    } finally {
      await rm(path.join(dist, 'landing.html'));
      await rm(path.join(dist, 'check.html'));
    }
  });

  it('never serves the raw index.html file (the app at /index.html is its 404 page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('__KYFW_CONFIG__');
  });

  it('caches hashed assets for a year and revalidates the rest', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const version = await t.app.inject({ method: 'GET', url: '/version.json' });
    expect(version.statusCode).toBe(200);
    expect(version.headers['cache-control']).toBe('no-cache');

    const image = await t.app.inject({ method: 'GET', url: '/images/banner.png' });
    expect(image.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing hashed asset with 404, not the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-OldHash1.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('__KYFW_CONFIG__');
  });

  it('keeps the API answering in the envelope', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/nothing/here` });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().code).toBe(ErrorCode.NOT_FOUND);
    const home = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/home/homeInfo` });
    expect(home.json().code).toBe(0);
  });

  it('does not let path traversal out of the web folder', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/../../../../etc/passwd' });
    expect(res.body).not.toContain('root:');
  });
});

describe('DEVTOOLS_DETERRENT=off', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = await makeWebDist();
    t = await buildTestApp({ env: { WEB_DIST_DIR: dist, DEVTOOLS_DETERRENT: 'off' } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('injects the switched-off deterrent', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/user/order/write' });
    expect(res.body).toContain('window.__KYFW_CONFIG__={"devtoolsDeterrent":false,"sandbox":true}');
  });
});

describe('injectPublicConfig', () => {
  it('tells the page whether sandboxes are in use', () => {
    expect(publicConfigOf({ devtoolsDeterrent: true, providers: 'real' })).toEqual({
      devtoolsDeterrent: true,
      sandbox: false,
    });
  });

  it('replaces the marker, else goes before </head>, and escapes < so nothing closes the script', () => {
    const config = { note: '</script><script>alert(1)</script>' };
    const withMarker = injectPublicConfig('<head><!--kyfw-config--></head>', config);
    expect(withMarker).toBe(
      '<head><script>window.__KYFW_CONFIG__={"note":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}</script></head>',
    );
    expect(injectPublicConfig('<head><title>x</title></head>', { a: 1 })).toBe(
      '<head><title>x</title><script>window.__KYFW_CONFIG__={"a":1}</script></head>',
    );
  });
});
