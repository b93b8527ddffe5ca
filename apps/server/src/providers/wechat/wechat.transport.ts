import type { FastifyInstance } from 'fastify';

/** How the sandbox platform reaches our callback: one POST, answered with status and body. */
export type DeliveryTransport = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}) => Promise<{ status: number; body: string }>;

/** Over the network, as the real platform does. */
export const httpTransport: DeliveryTransport = async ({ url, headers, body, timeoutMs }) => {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, body: await res.text() };
};

/**
 * Through `app.inject`: the request goes through the app's full routing, parsers and hooks without
 * a socket. Used when the app is not listening (integration tests build the app and inject).
 */
export function injectTransport(app: FastifyInstance): DeliveryTransport {
  return async ({ url, headers, body }) => {
    const u = new URL(url, 'http://localhost');
    const res = await app.inject({ method: 'POST', url: `${u.pathname}${u.search}`, headers, payload: body });
    return { status: res.statusCode, body: res.body };
  };
}

/**
 * A `fetch` served by a Fastify instance in-process. The embedded sandbox mode points the real
 * WeChat adapter at the sandbox platform through this, so the adapter's protocol code (token
 * caching, qrcode/create, errcodes) runs unchanged without the server having to call itself.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const u = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: `${u.pathname}${u.search}`,
      headers,
      payload: typeof init?.body === 'string' ? init.body : undefined,
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) out.append(k, String(one));
    }
    return new Response(res.rawPayload, { status: res.statusCode, headers: out });
  }) as typeof fetch;
}
