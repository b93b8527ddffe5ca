import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer (docs/decisions: security headers):
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: strict-origin-when-cross-origin`,
 *   `X-Frame-Options: DENY` (old browsers) and `Cross-Origin-Opener-Policy: same-origin`;
 * - `Strict-Transport-Security` when the site is served over https (PUBLIC_BASE_URL, or the
 *   request came through a trusted proxy as https);
 * - a Content-Security-Policy: the web app's page gets `pagePolicy` (set by web-app.ts with the
 *   hash of its one inline script), JSON answers `default-src 'none'; frame-ancestors 'none'`.
 *   The sandbox pages under /__sandbox and /__dev (development only) keep their inline scripts.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { publicBaseUrl: string }): void {
  const httpsSite = options.publicBaseUrl.startsWith('https://');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (httpsSite || request.protocol === 'https') {
      reply.header('Strict-Transport-Security', 'max-age=31536000');
    }
    if (!reply.hasHeader('Content-Security-Policy') && !isSandboxPath(request.url)) {
      const type = String(reply.getHeader('content-type') ?? '');
      if (!type.startsWith('text/html')) reply.header('Content-Security-Policy', API_POLICY);
    }
    return payload;
  });
}

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

function isSandboxPath(url: string): boolean {
  return url.startsWith('/__sandbox/') || url.startsWith('/__dev/');
}

/** 'sha256-…' of an inline script's text, as CSP names it. */
export function scriptHash(scriptText: string): string {
  return `'sha256-${createHash('sha256').update(scriptText, 'utf8').digest('base64')}'`;
}

/**
 * The web app page's policy. Scripts: our own files and the hashed config script only (no
 * 'unsafe-inline', no 'unsafe-eval'). Styles: antd writes its CSS-in-JS into <style> elements at
 * run time, which needs 'unsafe-inline' for styles (not for scripts). Images: ours, data: and blob:
 * (QR codes drawn in the page, previews), the public address (sandbox QR images) and the WeChat
 * platform's QR images. Nothing may frame the site.
 */
export function pagePolicy(options: { inlineScriptHashes: string[]; publicBaseUrl: string }): string {
  const publicOrigin = new URL(options.publicBaseUrl).origin;
  return [
    "default-src 'self'",
    `script-src 'self' ${options.inlineScriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${publicOrigin} https://mp.weixin.qq.com`,
    "font-src 'self' data:",
    `connect-src 'self' ${publicOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
