import { timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendFailure } from './errors.ts';

/** The header that opens the /__dev controls of a demo deployment to another machine. */
export const DEV_CONTROLS_SECRET_HEADER = 'x-dev-controls-secret';

const REFUSED = '演示环境的开发控制只接受本机请求或携带开发控制密钥的请求';

/** Headers a reverse proxy adds: a request carrying one came from somewhere else, whatever the socket says. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'] as const;

function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\./.test(ip);
}

/**
 * Made on this machine: the client address (request.ip, after TRUST_PROXY) and the socket are
 * loopback, and no proxy forwarded it (a proxy on the same host without TRUST_PROXY would otherwise
 * make every visitor look local).
 */
function isLocalRequest(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.ip) || !isLoopbackAddress(request.socket.remoteAddress ?? '')) return false;
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}

function hasSecret(request: FastifyRequest, secret: string | undefined): boolean {
  const given = request.headers[DEV_CONTROLS_SECRET_HEADER];
  if (!secret || typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The demo mode (NODE_ENV=production with ALLOW_SANDBOX_IN_PRODUCTION): the /__dev controls read any
 * phone's SMS code, pay any order and break the payment and LLM sandboxes for everyone, so they
 * answer only a request made on this machine or one carrying DEV_CONTROLS_SECRET in the
 * X-Dev-Controls-Secret header; anything else gets FORBIDDEN before a control runs. Development and
 * test keep them open. The sandboxes' own pages under /__sandbox (the QR's 模拟支付 / 模拟扫码) are
 * not controls: they need the QR's own ticket, which only its holder has.
 */
export function registerDevGate(app: FastifyInstance, options: { demoMode: boolean; secret?: string }): void {
  if (!options.demoMode) return;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path !== '/__dev' && !path.startsWith('/__dev/')) return;
    if (isLocalRequest(request) || hasSecret(request, options.secret)) return;
    request.log.warn({ path, ip: request.ip }, 'dev control refused in the demo mode');
    return sendFailure(request, reply, {
      code: ErrorCode.FORBIDDEN,
      message: REFUSED,
      httpStatus: 403,
      isUnexpected: false,
    });
  });
}
