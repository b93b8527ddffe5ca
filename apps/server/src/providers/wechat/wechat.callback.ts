import type { FastifyPluginAsync } from 'fastify';
import {
  type WechatEvent,
  WechatEventFormatError,
  type WechatProvider,
  WechatSignatureError,
  WechatStaleEventError,
} from './wechat.types.ts';
import { MAX_WECHAT_XML_BYTES } from './wechat-xml.ts';

export interface WechatCallbackOptions {
  provider: Pick<WechatProvider, 'parseEvent' | 'verifyServer'>;
  /** The path configured as the server URL on the platform (and as the sandbox's callbackUrl). */
  path: string;
  /**
   * Handles one verified event. Must be idempotent on `event.idempotencyKey`: the platform
   * re-sends a push it thinks failed. Throwing answers 500, and the platform retries.
   */
  onEvent(event: WechatEvent): Promise<void>;
}

/**
 * The callback endpoint for WeChat pushes, ready to register (optional: routes may do the same with
 * the provider directly). GET answers the server-configuration handshake with `echostr`; POST reads
 * the raw XML, verifies and parses it, hands the event to `onEvent` and answers `success` as plain
 * text — the platform's protocol, not our JSON envelope. Refusals: 403 for a bad signature or stale
 * timestamp, 400 for XML we do not understand; neither reveals why beyond that.
 */
export const wechatCallbackRoutes: FastifyPluginAsync<WechatCallbackOptions> = async (fastify, options) => {
  fastify.addContentTypeParser(
    ['text/xml', 'application/xml'],
    { parseAs: 'string', bodyLimit: MAX_WECHAT_XML_BYTES },
    (_req, body, done) => done(null, body),
  );

  const refuse = (err: unknown): [number, string] => {
    if (err instanceof WechatSignatureError || err instanceof WechatStaleEventError)
      return [403, 'forbidden'];
    if (err instanceof WechatEventFormatError) return [400, 'bad request'];
    throw err;
  };

  fastify.get(options.path, async (request, reply) => {
    try {
      const echostr = options.provider.verifyServer(request.query as Record<string, unknown>);
      return reply.type('text/plain; charset=utf-8').send(echostr);
    } catch (err) {
      const [status, text] = refuse(err);
      request.log.warn({ reason: (err as Error).name }, 'wechat handshake refused');
      return reply.code(status).type('text/plain; charset=utf-8').send(text);
    }
  });

  fastify.post(options.path, async (request, reply) => {
    let event: WechatEvent;
    try {
      event = options.provider.parseEvent({
        query: request.query as Record<string, unknown>,
        rawBody: typeof request.body === 'string' ? request.body : '',
      });
    } catch (err) {
      const [status, text] = refuse(err);
      request.log.warn({ reason: (err as Error).name }, 'wechat push refused');
      return reply.code(status).type('text/plain; charset=utf-8').send(text);
    }
    try {
      await options.onEvent(event);
    } catch (err) {
      request.log.error({ err, idempotencyKey: event.idempotencyKey }, 'wechat event handler failed');
      return reply.code(500).type('text/plain; charset=utf-8').send('retry');
    }
    return reply.type('text/plain; charset=utf-8').send('success');
  });
};
