import type { FastifyInstance } from 'fastify';

/**
 * Makes every request body in this Fastify context arrive as the exact string that was sent,
 * whatever its Content-Type. Signatures (WeChat's over the JSON text, Alipay's over form fields)
 * are computed over those bytes, so a parsed-and-reserialised body would not verify.
 *
 * Call it inside an encapsulated plugin (one registered without fastify-plugin), e.g. the one
 * holding the payment notification routes: it replaces the parsers of that context only.
 */
export function acceptRawBodies(instance: FastifyInstance, bodyLimit = 64 * 1024): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, body);
  });
}

/** The raw body of a request in a context prepared by acceptRawBodies ('' when there was none). */
export function rawBodyOf(body: unknown): string {
  return typeof body === 'string' ? body : '';
}
