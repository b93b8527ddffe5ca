import type { FastifyInstance } from 'fastify';
import type { FetchFn } from './http.ts';

/**
 * A `fetch` that hands every request to a Fastify app's `inject` instead of the network: the path
 * and query of the URL, the method, headers and body go through unchanged, so signatures verify
 * exactly as over loopback. For integration tests that build the app without listening: give it
 * to `createPaymentProviders(..., { fetch })` and both the adapters' API calls (to the mounted
 * sandboxes) and the sandboxes' notifications (to the app's notify routes) stay in-process.
 *
 * `getApp` is called per request, so the providers can be created before the app exists.
 */
export function createInjectFetch(getApp: () => FastifyInstance): FetchFn {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await getApp().inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(body ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(v));
    }
    const noBody = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(noBody ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };
}
