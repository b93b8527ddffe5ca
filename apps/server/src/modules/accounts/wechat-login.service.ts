import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, WechatSessionKind } from '@kyfw/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { WechatEvent, WechatProvider } from '../../providers/wechat/index.ts';
import { eraseAccount } from './account-data.service.ts';
import type { AccountHooks } from './account-hooks.ts';
import { QR_CODE_LIMIT, WECHAT_LOGIN_CLAIM_GRACE_MS } from './accounts.policy.ts';
import { TEXTS } from './accounts.texts.ts';
import type { AuthenticatedUser } from './auth.ts';
import { grantOnBinding } from './entitlements.service.ts';
import { findLimitHit } from './rate-limit.ts';
import { generateQrSessionId, generateScene, sha256Hex } from './secrets.ts';
import { type ClientInfo, startSession } from './sessions.service.ts';
import { lockKey } from './sms-codes.repo.ts';
import { insertRateEvent, listRateEvents } from './throttle.repo.ts';
import {
  bindOpenId,
  findUserByIdForUpdate,
  findUserByOpenId,
  insertUser,
  updateLastLogin,
} from './users.repo.ts';
import {
  claimQrSession,
  completeQrSession,
  findQrSessionById,
  findQrSessionBySceneForUpdate,
  insertQrSession,
  type QrSessionRecord,
  recordWechatEvent,
} from './wechat.repo.ts';

/** `data` of /qrCode, /weixin/wx/getBindingRCode and /websiteUser/deleteAccountRCode. */
export interface QrCodeData {
  /** The platform's QR ticket (spec §3). */
  ticket: string;
  /** The QR session id (spec's `userId`): poll with it. */
  userId: string;
  /** Where the browser loads the QR image (the platform's showqrcode, or the sandbox's). */
  qrUrl: string;
  /** Seconds the QR stays valid. */
  expireSeconds: number;
  /** True with the sandbox platform: the web offers 模拟扫码 (POST /__dev/wechat/scan). */
  sandbox: boolean;
}

export interface LoginStatusData {
  loginStatus: '0' | '1';
  userInfo: { token: string } | null;
}

/** Every answer about an unknown, foreign, used or expired QR session is this one (spec: 1005). */
function qrExpired(): AppError {
  return new AppError(ErrorCode.QR_EXPIRED);
}

/**
 * WeChat QR login, binding and deletion confirmation. Each QR is a session row whose id is the
 * spec's `userId`; the scan arrives as a signed platform event carrying our scene, and completes
 * the session of that scene. Sessions belong to whoever asked: a login QR to the browser (hash of its
 * kyfw_qr cookie), a bind or delete QR to the logged-in account. A session id presented by anyone
 * else is answered exactly like an expired one.
 */
export function createWechatLoginService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  wechat: WechatProvider;
  qrExpireSeconds: number;
  logger: Logger;
  /** HMAC key of the identifier digests kept after an erasure (secrets.ts loadDigestKey). */
  digestKey: string;
  /** The lifecycle hooks other modules registered (account deletion). */
  hooks: AccountHooks;
}) {
  const { db } = deps;

  async function createQr(
    kind: WechatSessionKind,
    owner: { browserKey: string } | { userId: string },
    client: ClientInfo,
  ): Promise<QrCodeData> {
    const now = deps.now();
    await db.transaction().execute(async (tx) => {
      await lockKey(tx, `qr:${client.ip}`);
      const since = new Date(now.getTime() - QR_CODE_LIMIT.windowMs);
      const times = await listRateEvents(tx, 'qr_code', client.ip, since);
      if (findLimitHit(times, [QR_CODE_LIMIT], now))
        throw new AppError(ErrorCode.RATE_LIMITED, TEXTS.qrLimit);
      await insertRateEvent(tx, 'qr_code', client.ip, now);
    });

    const id = generateQrSessionId();
    const scene = generateScene();
    let qr: Awaited<ReturnType<WechatProvider['createQr']>>;
    try {
      qr = await deps.wechat.createQr({ sceneStr: scene, expireSeconds: deps.qrExpireSeconds });
    } catch (error) {
      deps.logger.warn({ err: error, kind }, 'wechat qrcode/create failed');
      throw new AppError(ErrorCode.WECHAT_UNAVAILABLE, undefined, { cause: error });
    }
    await insertQrSession(db, {
      id,
      kind,
      scene,
      ticket: qr.ticket,
      requesterHash: 'browserKey' in owner ? sha256Hex(owner.browserKey) : null,
      requesterUserId: 'userId' in owner ? owner.userId : null,
      now,
      // Never later than the QR itself.
      expiresAt: new Date(Math.min(qr.expireAt.getTime(), now.getTime() + deps.qrExpireSeconds * 1000)),
    });
    return {
      ticket: qr.ticket,
      userId: id,
      qrUrl: qr.imageUrl,
      expireSeconds: deps.qrExpireSeconds,
      sandbox: deps.wechat.kind === 'sandbox',
    };
  }

  /** The caller's own session of `kind`, or 1005 for anything else. */
  async function ownSession(
    id: string,
    kind: WechatSessionKind,
    owner: { browserKey: string } | { userId: string },
  ): Promise<QrSessionRecord> {
    const session = await findQrSessionById(db, id);
    if (!session || session.kind !== kind) throw qrExpired();
    const isOwner =
      'browserKey' in owner
        ? session.requesterHash !== null && session.requesterHash === sha256Hex(owner.browserKey)
        : session.requesterUserId === owner.userId;
    if (!isOwner) throw qrExpired();
    if (session.status === 'pending' && session.expiresAt.getTime() <= deps.now().getTime())
      throw qrExpired();
    return session;
  }

  async function completeLogin(tx: Kysely<Database>, session: QrSessionRecord, openId: string, now: Date) {
    // Only active accounts hold an openid; a deleted account's WeChat starts a new account.
    const existing = await findUserByOpenId(tx, openId);
    const user = existing ?? (await insertUser(tx, { wxOpenId: openId, now }));
    if (!existing) await grantOnBinding(tx, user, 'wechat_register', now, deps.digestKey);
    await completeQrSession(tx, session.id, { status: 'done', userId: user.id, now });
  }

  async function completeBind(tx: Kysely<Database>, session: QrSessionRecord, openId: string, now: Date) {
    const requester = session.requesterUserId
      ? await findUserByIdForUpdate(tx, session.requesterUserId)
      : undefined;
    if (requester?.status !== 'active') {
      await completeQrSession(tx, session.id, { status: 'failed', failure: 'account_unavailable', now });
      return;
    }
    if (requester.wxOpenId === openId) {
      await completeQrSession(tx, session.id, { status: 'done', userId: requester.id, now });
      return;
    }
    if (requester.wxOpenId) {
      await completeQrSession(tx, session.id, { status: 'failed', failure: 'account_unavailable', now });
      return;
    }
    const owner = await findUserByOpenId(tx, openId);
    if (owner) {
      await completeQrSession(tx, session.id, { status: 'failed', failure: 'open_id_taken', now });
      return;
    }
    await bindOpenId(tx, requester.id, openId, now);
    await grantOnBinding(
      tx,
      { id: requester.id, phoneNumber: requester.phoneNumber, wxOpenId: openId },
      'wechat_bind',
      now,
      deps.digestKey,
    );
    await completeQrSession(tx, session.id, { status: 'done', userId: requester.id, now });
  }

  async function completeDelete(tx: Kysely<Database>, session: QrSessionRecord, openId: string, now: Date) {
    const requester = session.requesterUserId
      ? await findUserByIdForUpdate(tx, session.requesterUserId)
      : undefined;
    const matches = requester?.status === 'active' && requester.wxOpenId === openId;
    await completeQrSession(
      tx,
      session.id,
      matches
        ? { status: 'done', userId: requester.id, now }
        : { status: 'failed', failure: 'open_id_mismatch', now },
    );
  }

  return {
    /** /qrCode: a login QR bound to the asking browser (its kyfw_qr cookie value). */
    createLoginQr(browserKey: string, client: ClientInfo): Promise<QrCodeData> {
      return createQr('login', { browserKey }, client);
    },

    /**
     * /loginStatus: '0' until scanned; then '1' with a new session token, handed out once. The
     * first scan by a WeChat account without an account creates one (WeChat bound, no phone).
     * @throws AppError QR_EXPIRED for an expired, used, unknown or another browser's session
     */
    async loginStatus(id: string, browserKey: string, client: ClientInfo): Promise<LoginStatusData> {
      const session = await ownSession(id, 'login', { browserKey });
      if (session.status === 'pending') return { loginStatus: '0', userInfo: null };
      const now = deps.now();
      const isClaimable =
        session.status === 'done' &&
        session.userId !== null &&
        session.completedAt !== null &&
        now.getTime() - session.completedAt.getTime() <= WECHAT_LOGIN_CLAIM_GRACE_MS;
      if (!isClaimable || !session.userId) throw qrExpired();
      const userId = session.userId;
      const token = await db.transaction().execute(async (tx) => {
        if (!(await claimQrSession(tx, session.id))) return null;
        const user = await findUserByIdForUpdate(tx, userId);
        if (user?.status !== 'active') return null;
        await updateLastLogin(tx, userId, now);
        return startSession(tx, { userId, method: 'wechat', now, client });
      });
      if (!token) throw qrExpired();
      return { loginStatus: '1', userInfo: { token } };
    },

    /** /weixin/wx/getBindingRCode: a bind QR for the logged-in account (which has no WeChat yet). */
    createBindQr(auth: AuthenticatedUser, client: ClientInfo): Promise<QrCodeData> {
      if (auth.user.wxOpenId) throw new AppError(ErrorCode.ALREADY_HAS_WECHAT);
      return createQr('bind', { userId: auth.userId }, client);
    },

    /**
     * /getUserInfo {userId} during binding: true once the caller's own bind session is done.
     * @throws AppError QR_EXPIRED (expired/unknown/foreign) | WECHAT_BOUND_ELSEWHERE | ALREADY_HAS_WECHAT
     */
    async isBindDone(auth: AuthenticatedUser, id: string): Promise<boolean> {
      const session = await ownSession(id, 'bind', { userId: auth.userId });
      if (session.status === 'pending') return false;
      if (session.status === 'failed') {
        if (session.failure === 'open_id_taken') throw new AppError(ErrorCode.WECHAT_BOUND_ELSEWHERE);
        throw new AppError(ErrorCode.ALREADY_HAS_WECHAT);
      }
      return true;
    },

    /** /websiteUser/deleteAccountRCode: a QR the account's own WeChat must scan to confirm deletion. */
    createDeleteQr(auth: AuthenticatedUser, client: ClientInfo): Promise<QrCodeData> {
      if (!auth.user.wxOpenId) throw new AppError(ErrorCode.WECHAT_NOT_BOUND);
      return createQr('delete', { userId: auth.userId }, client);
    },

    /**
     * /websiteUser/deleteAccount {userId}: false while waiting for the scan; once the account's own
     * WeChat scanned, the account is deleted and true returned.
     * @throws AppError QR_EXPIRED | WECHAT_MISMATCH (another WeChat scanned)
     */
    async deleteIfConfirmed(auth: AuthenticatedUser, id: string): Promise<boolean> {
      const session = await ownSession(id, 'delete', { userId: auth.userId });
      if (session.status === 'pending') return false;
      if (session.status === 'failed') throw new AppError(ErrorCode.WECHAT_MISMATCH);
      const now = deps.now();
      const deleted = await db.transaction().execute(async (tx) => {
        if (!(await claimQrSession(tx, session.id))) return false;
        return eraseAccount(db, tx, auth.userId, 'deleted', now, deps.digestKey, deps.hooks);
      });
      if (!deleted) throw qrExpired();
      return true;
    },

    /**
     * One verified platform push. Scans (subscribe with a scene, SCAN) complete the pending session of
     * their scene; everything else is acknowledged and ignored. Two keys are recorded in the same
     * transaction as the completion: the event's idempotency key (the platform's retries and replays
     * of the same push) and the signed request's key (a captured signature reused with another body).
     * If either was seen before, nothing happens. A push that failed half-way recorded nothing, so
     * the platform's retry is processed.
     */
    async handleEvent(event: WechatEvent, signatureKey: string): Promise<void> {
      const now = deps.now();
      const scene = event.sceneStr;
      await db.transaction().execute(async (tx) => {
        const isNewSignature = await recordWechatEvent(tx, {
          dedupeKey: signatureKey,
          event: 'signature',
          scene: null,
          now,
        });
        const isNewEvent = await recordWechatEvent(tx, {
          dedupeKey: sha256Hex(event.idempotencyKey),
          event: event.rawEvent.slice(0, 50),
          scene: scene?.slice(0, 64) ?? null,
          now,
        });
        if (!isNewSignature || !isNewEvent) {
          deps.logger.info(
            { event: event.type, isNewSignature, isNewEvent },
            'wechat push seen before: ignored',
          );
          return;
        }
        if ((event.type !== 'subscribe' && event.type !== 'SCAN') || !scene) return;
        const session = await findQrSessionBySceneForUpdate(tx, scene);
        if (session?.status !== 'pending' || session.expiresAt.getTime() <= now.getTime()) return;
        if (session.kind === 'login') await completeLogin(tx, session, event.openId, now);
        else if (session.kind === 'bind') await completeBind(tx, session, event.openId, now);
        else await completeDelete(tx, session, event.openId, now);
      });
    },
  };
}

export type WechatLoginService = ReturnType<typeof createWechatLoginService>;
