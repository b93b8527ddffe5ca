// How the server answers on the wire: security headers, compression (pre-built br/gz assets and
// API answers), and connections that may not be held open (slow bodies, too many per client).
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { API_PREFIX, ok } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/modules/index.ts';
import { defineRoutesModule } from '../src/modules/types.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/** An endpoint with a long answer (a list of 200 orders is as long), beside the real modules. */
const longAnswerModule = defineRoutesModule({
  name: 'long-answer',
  routes(app) {
    app.get('/test/long', async () => ok({ items: Array.from({ length: 200 }, (_, i) => `订单 ${i}`) }));
  },
});

const INDEX_HTML = `<!doctype html><html lang="zh-CN"><head><title>科研服务网</title><!--kyfw-config-->
<script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;
const APP_JS = `console.log(${JSON.stringify('科研服务网'.repeat(500))});`;

async function makeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kyfw-serving-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), APP_JS);
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(APP_JS));
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(APP_JS));
  return dir;
}

describe('security headers and compression', () => {
  let t: TestApp;
  let https: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = await makeWebDist();
    t = await buildTestApp({
      env: { WEB_DIST_DIR: dist, PUBLIC_BASE_URL: 'http://localhost:3105' },
      modules: [...serverModules, longAnswerModule],
    });
    https = await buildTestApp({ env: { PUBLIC_BASE_URL: 'https://www.kyfw.example.cn' } });
  });
  afterAll(async () => {
    await t.close();
    await https.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends the page with a policy that allows exactly its own inline config script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const inline = res.body.match(/<script>([^<]*)<\/script>/)?.[1] ?? '';
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(policy).toMatch(new RegExp(`script-src 'self'[^;]*'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends API answers with nosniff, a deny-all policy, and HSTS when the site is https', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/home/homeInfo` });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const secure = await https.app.inject({ method: 'GET', url: `${API_PREFIX}/home/homeInfo` });
    expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
  });

  it('sends the pre-built brotli or gzip file of an asset to a browser that accepts it, with Vary', async () => {
    const url = '/assets/index-Ab12Cd34.js';
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(APP_JS);
    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(APP_JS);
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_JS);
  });

  it('compresses API answers above 1 KB and leaves small ones alone', async () => {
    const big = await t.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/test/long`,
      headers: { 'accept-encoding': 'gzip' },
    });
    const plain = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/test/long` });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString())).toEqual(JSON.parse(plain.body));
    const small = await t.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/home/homeInfo`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

/** Resolves when the server closes the socket (or it errors). */
function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    socket.once('close', () => resolve());
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('connections a client cannot hold', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp({
      env: { HTTP_IDLE_TIMEOUT_SECONDS: '1', HTTP_MAX_CONNECTIONS_PER_CLIENT: '3' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('closes a POST that announces 1,000 bytes and sends 15', async () => {
    const socket = await open(port);
    socket.on('error', () => {});
    socket.write(
      `POST ${API_PREFIX}/freeCheck/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"reportNo":"BG`,
    );
    await closed(socket);
    expect(socket.destroyed).toBe(true);
  });

  it('closes a client connection beyond the per-client limit and keeps serving the others', async () => {
    const sockets = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    extra.on('error', () => {});
    await closed(extra);
    // The first three still answer.
    const first = sockets[0]!;
    const answer = new Promise<string>((resolve) => first.once('data', (chunk) => resolve(String(chunk))));
    first.write(`GET ${API_PREFIX}/home/homeInfo HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    for (const socket of sockets) socket.destroy();
  });
});
