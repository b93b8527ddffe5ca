import { API_PREFIX, ErrorCode } from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendFailure } from './errors.ts';

/** The console's API (docs/api/operator.md): every call under it is a POST carrying the staff cookie. */
const CONSOLE_PREFIX = `${API_PREFIX}/admin/`;

/** The answer to a console call a page of another site made. */
export const CROSS_SITE_MESSAGE = '请求来自其他网站，运营后台已拒绝；请在本站的运营后台页面内操作';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The origin of `url`, or null when it is no http(s) URL (`null`, a file: page). */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether a browser says the call came from another site: `Sec-Fetch-Site: cross-site`, or an
 * `Origin` that is neither the public address nor the address the request was sent to (its host).
 * `Sec-Fetch-Site: same-origin` (or `none`, typed by the user) is believed: only a browser sets it,
 * and a page cannot. A request with neither header (curl, the CLI, an operator's script) is no
 * browser's: it carries no cookie a page could borrow, and is let through.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const fetchSite = single(request.headers['sec-fetch-site']);
  if (fetchSite === 'cross-site') return true;
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  const origin = single(request.headers.origin);
  if (origin === undefined) return false;
  const given = originOf(origin);
  if (given === null) return true;
  if (given === publicOrigin) return false;
  // request.host: the Host header, or X-Forwarded-Host behind a trusted proxy (TRUST_PROXY).
  return given !== originOf(`${request.protocol}://${request.host}`);
}

/**
 * The staff cookie is SameSite=Strict; this is the second lock (issue 22): a state-changing call to
 * the console API (anything but GET/HEAD/OPTIONS under /admin) that a browser marks as coming from
 * another site is refused with FORBIDDEN before any handler runs, so it changes nothing.
 */
export function registerConsoleOrigin(app: FastifyInstance, options: { publicBaseUrl: string }): void {
  const publicOrigin = new URL(options.publicBaseUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (READS.has(request.method) || !request.url.startsWith(CONSOLE_PREFIX)) return;
    if (!isCrossSite(request, publicOrigin)) return;
    request.log.warn(
      {
        path: request.url.split('?')[0],
        origin: single(request.headers.origin) ?? null,
        fetchSite: single(request.headers['sec-fetch-site']) ?? null,
      },
      'cross-site console call refused',
    );
    return sendFailure(request, reply, {
      code: ErrorCode.FORBIDDEN,
      message: CROSS_SITE_MESSAGE,
      httpStatus: 403,
      isUnexpected: false,
    });
  });
}
