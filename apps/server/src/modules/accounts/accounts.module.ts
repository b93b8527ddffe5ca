import path from 'node:path';
import { API_PREFIX } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { createSmsProvider, type SmsProvider, type SmsSetup } from '../../providers/sms/index.ts';
import { createWechatProvider, devAccountRoutes, type WechatSetup } from '../../providers/wechat/index.ts';
import { defineModule } from '../types.ts';
import { type AccountHooks, createAccountHooks } from './account-hooks.ts';
import { accountsJobDefinitions, accountsSchedules } from './accounts.jobs.ts';
import { smsIpLimits } from './accounts.policy.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { type AccountsService, createAccountsService } from './accounts.service.ts';
import { type CaptchaService, createCaptchaService } from './captcha.ts';
import { createLoginThrottle } from './login-throttle.service.ts';
import { loadDigestKey } from './secrets.ts';
import { createSmsCodeService } from './sms-codes.service.ts';
import { createUploadGuard, type UploadGuard } from './upload-guard.ts';
import { usersConsoleRoutes } from './users.console.ts';
import { wechatCallbackRoutes } from './wechat-callback.routes.ts';
import { createWechatLoginService, type WechatLoginService } from './wechat-login.service.ts';

/** Where the WeChat platform pushes events (set as the server URL on the Official Account). */
export const WECHAT_CALLBACK_PATH = '/wechat/callback';

/** Sandbox state (SMS outbox, WeChat platform) lives here: `${DATA_DIR}/sandbox`. */
export function sandboxStateDir(dataDir: string): string {
  return path.join(dataDir, 'sandbox');
}

export interface AccountsModuleService {
  accounts: AccountsService;
  /** The picture checks of /sendCheckCode (captcha.ts). */
  captcha: CaptchaService;
  /** The database and clock (the console's user routes). */
  db: Kysely<Database>;
  now: () => Date;
  /** Account lifecycle hooks: other modules register deletion hooks and export sections here. */
  hooks: AccountHooks;
  /** What every upload route checks: per-client rate limit, per-account storage quota (upload-guard.ts). */
  uploads: UploadGuard;
  /** HMAC key of the identifier digests kept after an erasure (secrets.ts loadDigestKey). */
  digestKey: string;
  sms: SmsSetup;
  /** The WeChat login (API process only; null in `npm run worker`, which never serves it). */
  wechat: { setup: WechatSetup; login: WechatLoginService } | null;
  /**
   * The inactivity notice SMS: sent only with a real SMS provider and ACCOUNT_NOTICE_SMS_TEMPLATE;
   * otherwise (sms null) the notice is only recorded.
   */
  inactivityNotice: { sms: SmsProvider | null; template?: string };
  /** The token cookie is Secure when PUBLIC_BASE_URL is https. */
  secureCookies: boolean;
  close(): Promise<void>;
}

/**
 * The accounts module: the API under /kyfw/web/v1 (docs/api/accounts.md), the WeChat callback at
 * /wechat/callback, and — exactly when a sandbox provider is configured — the dev controls
 * (GET /__dev/sms/last, POST /__dev/wechat/scan) and the sandbox WeChat platform (/__sandbox/wechat).
 * Mounted at the root; it nests its own prefixes.
 */
export const accountsModule = defineModule({
  name: 'accounts',
  prefix: '',
  createService({ config, db, clock, logger, providers, role }): AccountsModuleService {
    const stateDir = sandboxStateDir(config.dataDir);
    // Fails the start in production with DATABASE_URL and no ACCOUNT_DIGEST_SECRET.
    const digestKey = loadDigestKey({
      configured: config.accounts.digestSecret,
      dataDir: config.dataDir,
      nodeEnv: config.nodeEnv,
      databaseUrl: config.databaseUrl,
    });
    const hooks = createAccountHooks();
    const sms = providers.sms ?? createSmsProvider(config.sms, { stateDir, now: clock });
    const captcha = createCaptchaService({ db, now: clock, answer: providers.captchaAnswer });
    const codes = createSmsCodeService({
      db,
      sms: sms.provider,
      now: clock,
      captcha,
      captchaAfter: config.accounts.smsIpCaptchaAfter,
      maxFailuresPerHour: config.accounts.smsIpMaxFailuresPerHour,
      ipLimits: smsIpLimits(
        config.accounts.smsIpLimits.perMinute,
        config.accounts.smsIpLimits.perHour,
        config.accounts.smsIpLimits.perDay,
      ),
      logger,
    });
    const accounts = createAccountsService({
      db,
      now: clock,
      codes,
      throttle: createLoginThrottle({ db, now: clock }),
      password: { logN: config.accounts.passwordScryptCost },
      digestKey,
      hooks,
    });
    let wechat: AccountsModuleService['wechat'] = null;
    if (role === 'app') {
      const setup =
        providers.wechat ??
        createWechatProvider(config.wechat, {
          stateDir,
          publicBaseUrl: config.publicBaseUrl,
          callbackUrl: `${config.publicBaseUrl}${WECHAT_CALLBACK_PATH}`,
          now: () => clock().getTime(),
        });
      const login = createWechatLoginService({
        db,
        now: clock,
        wechat: setup.provider,
        qrExpireSeconds: config.wechat.WECHAT_QR_EXPIRE_SECONDS,
        logger,
        digestKey,
        hooks,
      });
      wechat = { setup, login };
    }
    const template = config.accounts.noticeSmsTemplate;
    const isRealSms = config.sms.SMS_PROVIDER !== 'sandbox';
    return {
      accounts,
      captcha,
      db,
      now: clock,
      hooks,
      uploads: createUploadGuard({
        db,
        hooks,
        quotaBytes: config.uploads.accountQuotaBytes,
        perClientPerMinute: config.uploads.perClientPerMinute,
      }),
      digestKey,
      sms,
      wechat,
      secureCookies: config.publicBaseUrl.startsWith('https://'),
      inactivityNotice: isRealSms && template ? { sms: sms.provider, template } : { sms: null },
      async close() {
        await wechat?.setup.close();
      },
    };
  },
  async routes(app, { accounts: service, console }) {
    // The console's user lock, entitlements and export/deletion requests, under /admin.
    await app.register(usersConsoleRoutes, { prefix: API_PREFIX, db: service.db, now: service.now, console });
    const wechat = service.wechat;
    if (!wechat) throw new Error('the accounts routes need the WeChat login (role app)');
    await app.register(accountsRoutes, {
      prefix: API_PREFIX,
      accounts: service.accounts,
      captcha: service.captcha,
      wechatLogin: wechat.login,
      isSmsSandbox: service.sms.sandbox !== null,
      secureCookies: service.secureCookies,
    });
    await app.register(wechatCallbackRoutes, {
      provider: wechat.setup.provider,
      path: WECHAT_CALLBACK_PATH,
      onEvent: (event, signatureKey) => wechat.login.handleEvent(event, signatureKey),
    });
    if (service.sms.sandbox || wechat.setup.sandbox) {
      await app.register(devAccountRoutes, { sms: service.sms.sandbox, wechat: wechat.setup.sandbox });
    }
  },
  jobs: accountsJobDefinitions,
  schedules: accountsSchedules,
});
