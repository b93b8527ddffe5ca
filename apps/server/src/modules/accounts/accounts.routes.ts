import fastifyCookie from '@fastify/cookie';
import { accountsApi, ErrorCode, MESSAGES, ok, qrSessionIdSchema } from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { attachment } from '../../lib/upload.ts';
import { BROWSER_KEY_COOKIE, BROWSER_KEY_MAX_AGE_SECONDS } from './accounts.policy.ts';
import type { AccountsService } from './accounts.service.ts';
import { TEXTS } from './accounts.texts.ts';
import { optionalUser, requireUser } from './auth.ts';
import type { CaptchaService } from './captcha.ts';
import { generateBrowserKey } from './secrets.ts';
import type { ClientInfo } from './sessions.service.ts';
import type { WechatLoginService } from './wechat-login.service.ts';

export interface AccountsRoutesOptions {
  accounts: AccountsService;
  captcha: CaptchaService;
  wechatLogin: WechatLoginService;
  /** SMS_PROVIDER=sandbox: /sendCheckCode says so, and the web shows the 沙箱 notice. */
  isSmsSandbox: boolean;
  /** Set the kyfw_qr cookie with `Secure` (PUBLIC_BASE_URL is https). */
  secureCookies: boolean;
}

const BROWSER_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function clientOf(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip || 'unknown', userAgent: typeof userAgent === 'string' ? userAgent : null };
}

/** A QR session id from a body field; anything malformed is answered like an expired QR (1005). */
function qrSessionId(value: unknown): string {
  const parsed = qrSessionIdSchema.safeParse(value);
  if (!parsed.success) throw new AppError(ErrorCode.QR_EXPIRED);
  return parsed.data;
}

/**
 * The accounts API under /kyfw/web/v1 (docs/api/accounts.md). Every answer is the envelope; every
 * body is parsed with the contracts' rules; no answer is cached by the browser or a proxy.
 */
export async function accountsRoutes(app: FastifyInstance, options: AccountsRoutesOptions): Promise<void> {
  const { accounts, wechatLogin } = options;
  await app.register(fastifyCookie);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  // --- SMS codes, registration, login, password reset ------------------------------------------

  route(app, accountsApi.captcha, async ({ request }) =>
    ok(await options.captcha.issue(clientOf(request).ip)),
  );

  route(app, accountsApi.sendCheckCode, async ({ body, request }) => {
    await accounts.sendCheckCode({
      phone: body.phoneNumber,
      purpose: body.type,
      client: clientOf(request),
      auth: await optionalUser(request),
      captcha: { captchaId: body.captchaId, captchaCode: body.captchaCode },
    });
    return ok(options.isSmsSandbox ? { sandbox: true as const } : null, MESSAGES.SMS_SENT);
  });

  route(app, accountsApi.addUserByPhone, async ({ body, request }) => {
    const token = await accounts.register({
      phone: body.phoneNumber,
      code: body.checkCode,
      md5: body.passWord,
      client: clientOf(request),
    });
    return ok({ token }, TEXTS.registered);
  });

  route(app, accountsApi.login, async ({ body, request }) => {
    const token = await accounts.login({
      phone: body.phoneNumber,
      md5: body.passWord,
      client: clientOf(request),
    });
    return ok({ token }, MESSAGES.WELCOME);
  });

  route(app, accountsApi.resetPassword, async ({ body, request }) => {
    await accounts.resetPassword({
      phone: body.phoneNumber,
      code: body.checkCode,
      md5: body.passWord,
      client: clientOf(request),
    });
    return ok(null, TEXTS.passwordReset);
  });

  // --- WeChat QR login ---------------------------------------------------------------------------

  route(app, accountsApi.qrCode, async ({ request, reply }) => {
    const existing = request.cookies[BROWSER_KEY_COOKIE];
    const browserKey = existing && BROWSER_KEY_PATTERN.test(existing) ? existing : generateBrowserKey();
    const data = await wechatLogin.createLoginQr(browserKey, clientOf(request));
    reply.setCookie(BROWSER_KEY_COOKIE, browserKey, {
      path: '/kyfw/web/v1',
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secureCookies,
      maxAge: BROWSER_KEY_MAX_AGE_SECONDS,
    });
    return ok(data);
  });

  route(app, accountsApi.loginStatus, async ({ body, request }) => {
    const id = qrSessionId(body.userId);
    const browserKey = request.cookies[BROWSER_KEY_COOKIE];
    if (!browserKey || !BROWSER_KEY_PATTERN.test(browserKey)) throw new AppError(ErrorCode.QR_EXPIRED);
    return ok(await wechatLogin.loginStatus(id, browserKey, clientOf(request)));
  });

  // --- The logged-in user ------------------------------------------------------------------------

  route(app, accountsApi.getUserInfo, async ({ body, request }) => {
    const auth = await requireUser(request);
    if (body.userId !== undefined && body.userId !== null && body.userId !== '') {
      // Polling a WeChat binding: nothing until the caller's own binding is done, then the caller's
      // user info (with wxOpenId), which the web puts in place of its user info (spec §4).
      const done = await wechatLogin.isBindDone(auth, qrSessionId(body.userId));
      if (!done) return ok({ wxOpenId: null });
      return ok(await accounts.getUserInfo(auth.userId), MESSAGES.BIND_SUCCESS_EXCLAIM);
    }
    return ok(await accounts.getUserInfo(auth.userId));
  });

  route(app, accountsApi.userInfo, async ({ auth }) => ok(await accounts.getUserInfo(auth.userId)), {
    auth: requireUser,
  });

  route(
    app,
    accountsApi.getBindingRCode,
    async ({ auth, request }) => ok(await wechatLogin.createBindQr(auth, clientOf(request))),
    { auth: requireUser },
  );

  route(
    app,
    accountsApi.bindPhoneNumber,
    async ({ auth, body }) => {
      const info = await accounts.bindPhone(auth, {
        phone: body.phoneNumber,
        code: body.checkCode,
        md5: body.passWord,
        profile: { major: body.major, education: body.education },
      });
      return ok(info, MESSAGES.BIND_SUCCESS);
    },
    { auth: requireUser },
  );

  route(
    app,
    accountsApi.updateUserInfo,
    async ({ auth, body }) => ok(await accounts.updateProfile(auth.userId, body), TEXTS.profileSaved),
    { auth: requireUser },
  );

  route(
    app,
    accountsApi.passwordChange,
    async ({ auth, body, request }) => {
      await accounts.changePassword(auth, {
        oldMd5: body.oldPassWord,
        newMd5: body.passWord,
        client: clientOf(request),
      });
      return ok(null, TEXTS.passwordChanged);
    },
    { auth: requireUser },
  );

  route(app, accountsApi.queryIsUsePhone, async ({ body, request }) =>
    ok({ used: await accounts.isPhoneUsed(body.phoneNumber, clientOf(request)) }),
  );

  route(
    app,
    accountsApi.logout,
    async ({ auth }) => {
      // Logging out twice, or with a token that already ended, is still a successful logout.
      if (auth) await accounts.logout(auth);
      return ok(null, TEXTS.loggedOut);
    },
    { auth: optionalUser },
  );

  // --- Account deletion and data export ----------------------------------------------------------

  route(
    app,
    accountsApi.deleteAccountRCode,
    async ({ auth, request }) => ok(await wechatLogin.createDeleteQr(auth, clientOf(request))),
    { auth: requireUser },
  );

  route(
    app,
    accountsApi.deleteAccount,
    async ({ auth, body, request }) => {
      if (body.checkCode !== undefined) {
        await accounts.deleteAccountBySms(auth, body.checkCode, clientOf(request));
        return ok({ deleted: true }, TEXTS.accountDeleted);
      }
      if (body.passWord !== undefined) {
        // No new SMS needed (issue 22): the current session plus the account's password.
        await accounts.deleteAccountByPassword(auth, body.passWord, clientOf(request));
        return ok({ deleted: true }, TEXTS.accountDeleted);
      }
      const deleted = await wechatLogin.deleteIfConfirmed(auth, qrSessionId(body.userId));
      return deleted ? ok({ deleted: true }, TEXTS.accountDeleted) : ok({ deleted: false });
    },
    { auth: requireUser },
  );

  route(
    app,
    accountsApi.exportData,
    async ({ auth, reply }) => {
      const data = await accounts.exportData(auth.userId);
      const fileName = TEXTS.exportFileName;
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', attachment(fileName, 'my-data.json'))
        .send(JSON.stringify(data, null, 2));
    },
    { auth: requireUser, alsoGet: true },
  );
}
