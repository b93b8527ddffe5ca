import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The loopback origin of a listening server (http://127.0.0.1:<port>, or the bound address when it
 * is not a wildcard), or null while it does not listen. The built-in sandboxes deliver here, to
 * the process they belong to, whatever PUBLIC_BASE_URL says (it may name a proxy, another port or
 * a host this machine cannot reach).
 */
export function localOrigin(server: Server): string | null {
  if (!server.listening) return null;
  const address = server.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') return null;
  const host =
    address.address === '0.0.0.0' || address.address === ''
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * `url` with the origin of `publicBaseUrl` replaced by this process's loopback origin when `url`
 * points under `publicBaseUrl` and the server listens; otherwise `url` unchanged.
 */
export function toSelf(url: string, publicBaseUrl: string, server: Server): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const origin = localOrigin(server);
  if (!origin || !(url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`))) return url;
  return `${origin}${url.slice(base.length)}`;
}

/** A fetch whose requests to our own public address go to this process over loopback (see toSelf). */
export function selfFetch(publicBaseUrl: string, server: Server): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    if (typeof input === 'string' || input instanceof URL) {
      return fetch(toSelf(String(input), publicBaseUrl, server), init);
    }
    const target = toSelf(input.url, publicBaseUrl, server);
    return fetch(target === input.url ? input : new Request(target, input), init);
  }) as typeof fetch;
}
