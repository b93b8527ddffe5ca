import path from 'node:path';
import { API_PREFIX } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { createSmsProvider, type SmsSetup } from '../../providers/sms/index.ts';
import { createWechatProvider, devAccountRoutes, type WechatSetup } from '../../providers/wechat/index.ts';
import type { AppModule, ModuleContext } from '../types.ts';
import { smsIpLimits } from './accounts.policy.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { createAccountsService } from './accounts.service.ts';
import { registerAuth } from './auth.ts';
import { registerDigestKey } from './digest-key.ts';
import { createLoginThrottle } from './login-throttle.service.ts';
import { loadDigestKey } from './secrets.ts';
import { createSmsCodeService } from './sms-codes.service.ts';
import { wechatCallbackRoutes } from './wechat-callback.routes.ts';
import { createWechatLoginService } from './wechat-login.service.ts';

/** Where the WeChat platform pushes events (set as the server URL on the Official Account). */
export const WECHAT_CALLBACK_PATH = '/wechat/callback';

/** Sandbox state (SMS outbox, WeChat platform) lives here: `${DATA_DIR}/sandbox`. */
export function sandboxStateDir(dataDir: string): string {
  return path.join(dataDir, 'sandbox');
}

export interface AccountsModuleOptions {
  /** Overrides the providers built from configuration (tests). */
  sms?: SmsSetup;
  wechat?: WechatSetup;
}

/**
 * The accounts module: the API under /kyfw/web/v1 (docs/api/accounts.md), the WeChat callback at
 * /wechat/callback, and — exactly when a sandbox provider is configured — the dev controls
 * (GET /__dev/sms/last, POST /__dev/wechat/scan) and the sandbox WeChat platform (/__sandbox/wechat).
 * Mounted at the root; it nests its own prefixes.
 */
export function createAccountsModule(options: AccountsModuleOptions = {}): AppModule {
  return {
    name: 'accounts',
    prefix: '',
    async register(app: FastifyInstance, { config, db }: ModuleContext) {
      // buildApp registers auth at the root for every module; this only covers an app built without it.
      registerAuth(app, { db });
      const now = app.accountsAuth.now;
      const stateDir = sandboxStateDir(config.dataDir);
      // Fails the start in production with DATABASE_URL and no ACCOUNT_DIGEST_SECRET.
      const digestKey = loadDigestKey({
        configured: config.accounts.digestSecret,
        dataDir: config.dataDir,
        nodeEnv: config.nodeEnv,
        databaseUrl: config.databaseUrl,
      });
      registerDigestKey(db, digestKey);

      const sms = options.sms ?? createSmsProvider(config.sms, { stateDir });
      const wechat =
        options.wechat ??
        createWechatProvider(config.wechat, {
          stateDir,
          publicBaseUrl: config.publicBaseUrl,
          callbackUrl: `${config.publicBaseUrl}${WECHAT_CALLBACK_PATH}`,
          now: () => now().getTime(),
        });
      app.addHook('onClose', async () => {
        await wechat.close();
      });

      const codes = createSmsCodeService({
        db,
        sms: sms.provider,
        now,
        ipLimits: smsIpLimits(
          config.accounts.smsIpLimits.perMinute,
          config.accounts.smsIpLimits.perHour,
          config.accounts.smsIpLimits.perDay,
        ),
        logger: app.log,
      });
      const accounts = createAccountsService({
        db,
        now,
        codes,
        throttle: createLoginThrottle({ db, now }),
        password: { logN: config.accounts.passwordScryptCost },
        digestKey,
      });
      const wechatLogin = createWechatLoginService({
        db,
        now,
        wechat: wechat.provider,
        qrExpireSeconds: config.wechat.WECHAT_QR_EXPIRE_SECONDS,
        logger: app.log,
        digestKey,
      });

      await app.register(accountsRoutes, {
        prefix: API_PREFIX,
        accounts,
        wechatLogin,
        isSmsSandbox: sms.sandbox !== null,
        secureCookies: config.publicBaseUrl.startsWith('https://'),
      });
      await app.register(wechatCallbackRoutes, {
        provider: wechat.provider,
        path: WECHAT_CALLBACK_PATH,
        onEvent: (event, signatureKey) => wechatLogin.handleEvent(event, signatureKey),
      });
      if (sms.sandbox || wechat.sandbox) {
        await app.register(devAccountRoutes, { sms: sms.sandbox, wechat: wechat.sandbox });
      }
    },
  };
}

export const accountsModule = createAccountsModule();
