import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { createWechatAdapter } from './wechat.adapter.ts';
import { listWechatConfigProblems, type WechatConfig } from './wechat.config.ts';
import { WechatSandboxPlatform } from './wechat.sandbox.ts';
import { injectFetch } from './wechat.transport.ts';
import type { WechatProvider } from './wechat.types.ts';

export { AccessTokenCache } from './access-token.ts';
export {
  createWechatAdapter,
  WECHAT_DEFAULT_API_BASE,
  WECHAT_DEFAULT_QR_IMAGE_BASE,
  type WechatAdapterOptions,
} from './wechat.adapter.ts';
export { type WechatCallbackOptions, wechatCallbackRoutes } from './wechat.callback.ts';
export { listWechatConfigProblems, type WechatConfig, wechatConfigSchema } from './wechat.config.ts';
export {
  type DevAccountRoutesOptions,
  devAccountRoutes,
  type WechatDevRoutesOptions,
  wechatDevRoutes,
} from './wechat.dev-routes.ts';
export {
  type DeliveryResult,
  type ScanInput,
  WECHAT_SANDBOX_MOUNT_PATH,
  WECHAT_SANDBOX_STATE_FILE,
  type WechatSandboxOptions,
  WechatSandboxPlatform,
} from './wechat.sandbox.ts';
export { type DeliveryTransport, httpTransport, injectFetch, injectTransport } from './wechat.transport.ts';
export * from './wechat.types.ts';
export { parseWechatEvent } from './wechat-event.ts';
export {
  computeWechatSignature,
  verifyWechatQuery,
  WECHAT_MAX_EVENT_AGE_SECONDS,
} from './wechat-signature.ts';
export { buildWechatXml, parseWechatXml } from './wechat-xml.ts';

export interface WechatSetup {
  provider: WechatProvider;
  /** Present exactly when WECHAT_PROVIDER=sandbox: mount it via devAccountRoutes. */
  sandbox: WechatSandboxPlatform | null;
  /** Releases the in-process sandbox platform app; call from the server's onClose. */
  close(): Promise<void>;
}

export interface CreateWechatOptions {
  /** Sandbox tickets, followers and tokens persist here when given (e.g. ./data/sandbox). */
  stateDir?: string | null;
  /** Origin the browser reaches us at (PUBLIC_BASE_URL); the sandbox QR image and scan page live under it. */
  publicBaseUrl?: string;
  /** Our callback URL (absolute, e.g. `${PUBLIC_BASE_URL}/wechat/callback`); the sandbox pushes to it. */
  callbackUrl?: string;
  now?: () => number;
}

/**
 * Builds the configured WeChat provider. Real: the adapter against api.weixin.qq.com. Sandbox: the
 * same adapter, talking to an in-process sandbox platform (through `inject`, so the server never
 * needs to call itself), whose QR images and scan page `devAccountRoutes` mounts on our app.
 * @throws Error listing missing variables (real) or missing callbackUrl (sandbox)
 */
export function createWechatProvider(config: WechatConfig, options: CreateWechatOptions = {}): WechatSetup {
  const problems = listWechatConfigProblems(config);
  if (problems.length > 0) throw new Error(`WeChat configuration incomplete: ${problems.join('; ')}`);
  if (config.WECHAT_PROVIDER === 'real') {
    return {
      provider: createWechatAdapter({
        appId: config.WECHAT_APP_ID!,
        appSecret: config.WECHAT_APP_SECRET!,
        token: config.WECHAT_TOKEN!,
        apiBase: config.WECHAT_API_BASE,
        kind: 'real',
        now: options.now,
      }),
      sandbox: null,
      close: async () => {},
    };
  }

  if (!options.callbackUrl) throw new Error('createWechatProvider: callbackUrl is required for the sandbox');
  // Unless configured, fresh secrets per process: both ends live here, nobody else needs them.
  const appId = config.WECHAT_APP_ID ?? 'wx5a4d0b0c0sandbox';
  const appSecret = config.WECHAT_APP_SECRET ?? randomBytes(16).toString('hex');
  const token = config.WECHAT_TOKEN ?? randomBytes(16).toString('hex');
  const platform = new WechatSandboxPlatform({
    appId,
    appSecret,
    token,
    publicBaseUrl: options.publicBaseUrl ?? '',
    callbackUrl: options.callbackUrl,
    stateDir: options.stateDir,
    now: options.now,
  });
  const platformApp = Fastify({ logger: false });
  platformApp.register(platform.plugin);
  const provider = createWechatAdapter({
    appId,
    appSecret,
    token,
    apiBase: 'http://wechat-sandbox.internal',
    qrImageBase: platform.qrImageBase(),
    kind: 'sandbox',
    fetch: injectFetch(platformApp),
    now: options.now,
  });
  return { provider, sandbox: platform, close: () => platformApp.close() };
}
