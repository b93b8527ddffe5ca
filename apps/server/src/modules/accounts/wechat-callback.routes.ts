import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  type WechatEvent,
  WechatEventFormatError,
  type WechatProvider,
  WechatSignatureError,
  WechatStaleEventError,
} from '../../providers/wechat/index.ts';
import { MAX_WECHAT_XML_BYTES } from '../../providers/wechat/wechat-xml.ts';

export interface WechatCallbackRoutesOptions {
  provider: Pick<WechatProvider, 'parseEvent' | 'verifyServer'>;
  path: string;
  /**
   * Handles one verified push. `signatureKey` identifies the signed request (its signature,
   * timestamp and nonce): record it with the event so the same signed request is never acted on
   * twice. Throwing answers 500 and the platform retries.
   */
  onEvent(event: WechatEvent, signatureKey: string): Promise<void>;
}

function firstQuery(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
}

/**
 * The WeChat callback: GET is the server-configuration handshake (echostr), POST a signed XML
 * push answered `success` as plain text, per the platform's protocol. The signature and parsing are
 * the provider's (providers/wechat); this differs from the provider's ready-made
 * `wechatCallbackRoutes` in one point: it hands the handler a key of the signed request.
 *
 * Why: in plaintext mode the platform signs token, timestamp and nonce — not the body. Anyone who
 * sees one signed push URL (a proxy log, an access log line) could, within the 5-minute window,
 * send another body under it, e.g. a scan of their own login QR "from" someone else's openid. The
 * handler records the signed request's key in the same transaction as the event, so a signature
 * is usable once; the platform's genuine retry after a failure is processed, because the failed
 * attempt recorded nothing.
 */
export async function wechatCallbackRoutes(app: FastifyInstance, options: WechatCallbackRoutesOptions) {
  app.addContentTypeParser(
    ['text/xml', 'application/xml'],
    { parseAs: 'string', bodyLimit: MAX_WECHAT_XML_BYTES },
    (_request, body, done) => done(null, body),
  );

  const refusal = (error: unknown): [number, string] => {
    if (error instanceof WechatSignatureError || error instanceof WechatStaleEventError)
      return [403, 'forbidden'];
    if (error instanceof WechatEventFormatError) return [400, 'bad request'];
    throw error;
  };

  app.get(options.path, async (request, reply) => {
    try {
      const echostr = options.provider.verifyServer(request.query as Record<string, unknown>);
      return reply.type('text/plain; charset=utf-8').send(echostr);
    } catch (error) {
      const [status, text] = refusal(error);
      request.log.warn({ reason: (error as Error).name }, 'wechat handshake refused');
      return reply.code(status).type('text/plain; charset=utf-8').send(text);
    }
  });

  app.post(options.path, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    let event: WechatEvent;
    try {
      event = options.provider.parseEvent({
        query,
        rawBody: typeof request.body === 'string' ? request.body : '',
      });
    } catch (error) {
      const [status, text] = refusal(error);
      request.log.warn({ reason: (error as Error).name }, 'wechat push refused');
      return reply.code(status).type('text/plain; charset=utf-8').send(text);
    }
    const signatureKey = createHash('sha256')
      .update(
        `sig:${firstQuery(query, 'signature').toLowerCase()}:${firstQuery(query, 'timestamp')}:${firstQuery(query, 'nonce')}`,
      )
      .digest('hex');
    try {
      await options.onEvent(event, signatureKey);
    } catch (error) {
      request.log.error({ err: error }, 'wechat event handler failed');
      return reply.code(500).type('text/plain; charset=utf-8').send('retry');
    }
    return reply.type('text/plain; charset=utf-8').send('success');
  });
}
