import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  type AlipayConfig,
  acceptRawBodies,
  createAlipayProvider,
  createSandboxPaymentSetup,
  createWechatPayProvider,
  devPaymentRoutes,
  type PayChannel,
  type PaymentNotification,
  PaymentNotificationError,
  type PaymentProviders,
  type PaymentSandbox,
  rawBodyOf,
  type SandboxKeys,
  type WechatPayConfig,
} from '../../../src/providers/payment/index.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** A TEST-ONLY key of the fixtures folder (PEM text). */
export function fixtureKey(name: 'merchant' | 'platform', half: 'private' | 'public'): string {
  return readFileSync(join(FIXTURES, `test-only-${name}-${half}.pem`), 'utf8');
}

export function fixturePath(file: string): string {
  return join(FIXTURES, file);
}

/** The vectors generate-vectors.py computed with openssl and Python's cryptography. */
export const vectors = JSON.parse(readFileSync(join(FIXTURES, 'vectors.json'), 'utf8')) as Record<
  string,
  string
>;

/**
 * Injected sandbox keys: two fixed TEST-ONLY keys in crossed roles, so that a mix-up of merchant
 * and platform keys fails (and no test waits for RSA key generation).
 */
export const TEST_SANDBOX_KEYS: SandboxKeys = {
  wechatpayMerchant: fixtureKey('merchant', 'private'),
  wechatpayPlatform: fixtureKey('platform', 'private'),
  alipayApp: fixtureKey('platform', 'private'),
  alipayPlatform: fixtureKey('merchant', 'private'),
};

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export type Reaction = 'ack' | 'fail';

export interface Harness {
  app: FastifyInstance;
  baseUrl: string;
  providers: PaymentProviders;
  sandbox: PaymentSandbox;
  /** The adapters' configuration the sandbox setup produced. */
  sandboxConfig: { wechatpay: WechatPayConfig; alipay: AlipayConfig };
  /** Verified notifications our endpoint received, in arrival order. */
  received: PaymentNotification[];
  /** Notifications our endpoint refused (verification errors). */
  rejected: PaymentNotificationError[];
  /** How our endpoint answers the next verified notification; default ack. */
  react: (n: PaymentNotification) => Reaction;
  notifyUrl(channel: PayChannel): string;
  close(): Promise<void>;
}

/**
 * A Fastify app on 127.0.0.1 with the payment sandboxes mounted at /__sandbox (as the main app
 * will), the dev routes, and a notification endpoint per channel that verifies with the real
 * adapters and acknowledges the way each platform expects.
 */
export async function startHarness(
  options: { port?: number; stateDir?: string; retryScheduleMs?: number[]; now?: () => number } = {},
): Promise<Harness> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const setup = await createSandboxPaymentSetup({
    stateDir: options.stateDir,
    baseUrl,
    keys: TEST_SANDBOX_KEYS,
    retryScheduleMs: options.retryScheduleMs ?? [40, 40, 40],
    now: options.now,
  });
  const runtime = { now: options.now };
  const sandbox = setup.sandbox;
  const providers: PaymentProviders = {
    wx: createWechatPayProvider(setup.wechatpay, runtime),
    ali: createAlipayProvider(setup.alipay, runtime),
    sandbox,
  };
  const app = Fastify();
  const harness: Harness = {
    app,
    baseUrl,
    providers,
    sandbox,
    sandboxConfig: { wechatpay: setup.wechatpay, alipay: setup.alipay },
    received: [],
    rejected: [],
    react: () => 'ack',
    notifyUrl: (channel) => `${baseUrl}/kyfw/web/v1/pay/notify/${channel}`,
    close: async () => {
      await app.close();
    },
  };
  await app.register(sandbox.routes, { prefix: '/__sandbox' });
  await app.register(devPaymentRoutes, { sandbox });
  await app.register(async (scope) => {
    acceptRawBodies(scope);
    scope.post<{ Params: { channel: PayChannel } }>(
      '/kyfw/web/v1/pay/notify/:channel',
      async (request, reply) => {
        const provider = providers[request.params.channel];
        let ack: ReturnType<typeof provider.acknowledge>;
        try {
          const notification = provider.verifyNotification({
            headers: request.headers,
            rawBody: rawBodyOf(request.body),
          });
          harness.received.push(notification);
          ack = provider.acknowledge(
            harness.react(notification) === 'ack'
              ? { ok: true }
              : { ok: false, message: '系统繁忙', statusCode: 500 },
          );
        } catch (error) {
          if (!(error instanceof PaymentNotificationError)) throw error;
          harness.rejected.push(error);
          ack = provider.acknowledge({ ok: false, message: '验签失败', statusCode: 401 });
        }
        return reply.code(ack.statusCode).type(ack.contentType).send(ack.body);
      },
    );
  });
  await app.listen({ port, host: '127.0.0.1' });
  return harness;
}

let counter = 0;

/** A fresh order number per test: KYT + time + counter (WeChat's 6-32 characters). */
export function newOrderNo(): string {
  counter++;
  return `KYT${Date.now().toString(36).toUpperCase()}${counter.toString().padStart(4, '0')}`;
}

/** Reads a page or posts a form to it with plain fetch (what a phone browser does). */
export async function openPage(
  url: string,
  action?: 'pay' | 'cancel',
): Promise<{ status: number; html: string }> {
  const response = await fetch(
    url,
    action
      ? {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `action=${action}`,
        }
      : undefined,
  );
  return { status: response.status, html: await response.text() };
}
