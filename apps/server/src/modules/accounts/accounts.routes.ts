import fastifyCookie from '@fastify/cookie';
import { ErrorCode, MESSAGES, ok } from '@kyfw/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { parseBody } from '../../lib/validate.ts';
import { BROWSER_KEY_COOKIE, BROWSER_KEY_MAX_AGE_SECONDS } from './accounts.policy.ts';
import {
  bindPhoneBody,
  deleteAccountBody,
  getUserInfoBody,
  loginBody,
  loginStatusBody,
  passwordChangeBody,
  qrSessionIdSchema,
  queryIsUsePhoneBody,
  registerBody,
  resetPasswordBody,
  sendCheckCodeBody,
  updateUserInfoBody,
} from './accounts.schemas.ts';
import type { AccountsService } from './accounts.service.ts';
import { TEXTS } from './accounts.texts.ts';
import { optionalUser, requireUser } from './auth.ts';
import { generateBrowserKey } from './secrets.ts';
import type { ClientInfo } from './sessions.service.ts';
import type { WechatLoginService } from './wechat-login.service.ts';

export interface AccountsRoutesOptions {
  accounts: AccountsService;
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

  app.post('/sendCheckCode', async (request) => {
    const body = parseBody(request, sendCheckCodeBody);
    await accounts.sendCheckCode({
      phone: body.phoneNumber,
      purpose: body.type,
      client: clientOf(request),
      auth: await optionalUser(request),
    });
    return ok(options.isSmsSandbox ? { sandbox: true } : null, MESSAGES.SMS_SENT);
  });

  app.post('/addUserByPhone', async (request) => {
    const body = parseBody(request, registerBody);
    const token = await accounts.register({
      phone: body.phoneNumber,
      code: body.checkCode,
      md5: body.passWord,
      client: clientOf(request),
    });
    return ok({ token }, TEXTS.registered);
  });

  app.post('/login', async (request) => {
    const body = parseBody(request, loginBody);
    const token = await accounts.login({
      phone: body.phoneNumber,
      md5: body.passWord,
      client: clientOf(request),
    });
    return ok({ token }, MESSAGES.WELCOME);
  });

  app.post('/resetPassword', async (request) => {
    const body = parseBody(request, resetPasswordBody);
    await accounts.resetPassword({
      phone: body.phoneNumber,
      code: body.checkCode,
      md5: body.passWord,
      client: clientOf(request),
    });
    return ok(null, TEXTS.passwordReset);
  });

  // --- WeChat QR login ---------------------------------------------------------------------------

  app.post('/qrCode', async (request, reply) => {
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

  app.post('/loginStatus', async (request) => {
    const body = parseBody(request, loginStatusBody);
    const id = qrSessionId(body.userId);
    const browserKey = request.cookies[BROWSER_KEY_COOKIE];
    if (!browserKey || !BROWSER_KEY_PATTERN.test(browserKey)) throw new AppError(ErrorCode.QR_EXPIRED);
    return ok(await wechatLogin.loginStatus(id, browserKey, clientOf(request)));
  });

  // --- The logged-in user ------------------------------------------------------------------------

  app.post('/getUserInfo', async (request) => {
    const body = parseBody(request, getUserInfoBody);
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

  app.post('/websiteUser/userInfo', async (request) => {
    const auth = await requireUser(request);
    return ok(await accounts.getUserInfo(auth.userId));
  });

  app.post('/weixin/wx/getBindingRCode', async (request) => {
    const auth = await requireUser(request);
    return ok(await wechatLogin.createBindQr(auth, clientOf(request)));
  });

  app.post('/websiteUser/bindPhoneNumber', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, bindPhoneBody);
    const info = await accounts.bindPhone(auth, {
      phone: body.phoneNumber,
      code: body.checkCode,
      md5: body.passWord,
      profile: { major: body.major, education: body.education },
    });
    return ok(info, MESSAGES.BIND_SUCCESS);
  });

  app.post('/websiteUser/updateUserInfo', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, updateUserInfoBody);
    return ok(await accounts.updateProfile(auth.userId, body), TEXTS.profileSaved);
  });

  app.post('/websiteUser/passwordChange', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, passwordChangeBody);
    await accounts.changePassword(auth, {
      oldMd5: body.oldPassWord,
      newMd5: body.passWord,
      client: clientOf(request),
    });
    return ok(null, TEXTS.passwordChanged);
  });

  app.post('/websiteUser/queryIsUsePhone', async (request) => {
    const body = parseBody(request, queryIsUsePhoneBody);
    return ok({ used: await accounts.isPhoneUsed(body.phoneNumber, clientOf(request)) });
  });

  app.post('/user/logout', async (request) => {
    // Logging out twice, or with a token that already ended, is still a successful logout.
    const auth = await optionalUser(request);
    if (auth) await accounts.logout(auth);
    return ok(null, TEXTS.loggedOut);
  });

  // --- Account deletion and data export ----------------------------------------------------------

  app.post('/websiteUser/deleteAccountRCode', async (request) => {
    const auth = await requireUser(request);
    return ok(await wechatLogin.createDeleteQr(auth, clientOf(request)));
  });

  app.post('/websiteUser/deleteAccount', async (request) => {
    const auth = await requireUser(request);
    const body = parseBody(request, deleteAccountBody);
    if (body.checkCode !== undefined) {
      await accounts.deleteAccountBySms(auth, body.checkCode);
      return ok({ deleted: true }, TEXTS.accountDeleted);
    }
    const deleted = await wechatLogin.deleteIfConfirmed(auth, qrSessionId(body.userId));
    return deleted ? ok({ deleted: true }, TEXTS.accountDeleted) : ok({ deleted: false });
  });

  const exportData = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await requireUser(request);
    const data = await accounts.exportData(auth.userId);
    const fileName = TEXTS.exportFileName;
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="my-data.json"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      )
      .send(JSON.stringify(data, null, 2));
  };
  app.post('/websiteUser/exportData', exportData);
  app.get('/websiteUser/exportData', exportData);
}
