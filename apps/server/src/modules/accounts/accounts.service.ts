import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, SmsCodePurpose } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { buildAccountExport, eraseAccount } from './account-data.service.ts';
import type { AccountHooks } from './account-hooks.ts';
import { recordAccountRequest } from './account-requests.repo.ts';
import { QUERY_PHONE_LIMITS } from './accounts.policy.ts';
import { TEXTS } from './accounts.texts.ts';
import { type AuthenticatedUser, toAccountUser } from './auth.ts';
import { listEntitlementsOf } from './entitlements.repo.ts';
import { grantOnBinding, wasGrantEarnedBefore } from './entitlements.service.ts';
import type { LoginThrottle } from './login-throttle.service.ts';
import { findLimitHit, longestWindow } from './rate-limit.ts';
import {
  createDummyHash,
  hashPassword,
  needsRehash,
  type PasswordHashParams,
  verifyPassword,
} from './secrets.ts';
import { revokeSession, revokeUserSessions } from './sessions.repo.ts';
import { type ClientInfo, startSession } from './sessions.service.ts';
import { lockKey } from './sms-codes.repo.ts';
import type { SmsCodeService } from './sms-codes.service.ts';
import { insertRateEvent, listRateEvents } from './throttle.repo.ts';
import { toUserInfo, type UserInfo } from './user-info.ts';
import {
  bindPhone,
  findUserById,
  findUserByIdForUpdate,
  findUserByPhone,
  insertUser,
  isUniqueViolation,
  lockUserForNewRecords,
  type ProfileFields,
  type UserRecord,
  updateLastLogin,
  updatePasswordHash,
  updateProfile,
} from './users.repo.ts';

// The entry points other modules use live here too (a module reaches another only through its
// service): the session helpers, the entitlement API and the account lifecycle hooks.
export {
  type AccountDeletionContext,
  type AccountDeletionHook,
  type AccountExportSection,
  type AccountHooks,
  type AccountStorageUse,
  DELETION_RANK,
} from './account-hooks.ts';
export { type AccountUser, type AuthenticatedUser, optionalUser, requireUser } from './auth.ts';
export { BENEFITS, toBenefitsView } from './benefits.ts';
export {
  consumeEntitlement,
  ENTITLEMENT_KINDS,
  type Entitlement,
  type EntitlementKind,
  listEntitlements,
  restoreEntitlement,
} from './entitlements.service.ts';
export type { UploadGuard } from './upload-guard.ts';

/**
 * For a module about to write new records of an account (an order, a check): call it inside that
 * transaction, before the writes. It holds the account row against a deletion until the
 * transaction ends, and refuses an account that is no longer active — the session the request came
 * with was valid when it arrived, but the account may have been deleted since (an upload parses for
 * seconds before it writes). So once a deletion has committed, no new record of the account can be
 * written, and one written just before is seen (and dealt with) by the deletion, which waits for
 * it. Lock order (modules/orders/README.md): the users row comes before everything else.
 * @throws AppError UNAUTHORIZED (请先登录) when the account was deleted or closed.
 */
export async function lockActiveAccount(tx: Kysely<Database>, userId: string): Promise<void> {
  const user = await lockUserForNewRecords(tx, userId);
  if (user?.status !== 'active') throw new AppError(ErrorCode.UNAUTHORIZED);
}

export interface AccountsServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  codes: SmsCodeService;
  throttle: LoginThrottle;
  password: PasswordHashParams;
  /** HMAC key of the identifier digests kept after an erasure (secrets.ts loadDigestKey). */
  digestKey: string;
  /** The lifecycle hooks other modules registered (deletion, export). */
  hooks: AccountHooks;
}

/** How an account holding no set came by its identifiers (its phone if it has one). */
function registeredBy(user: UserRecord): 'phone_register' | 'wechat_register' {
  return user.phoneNumber ? 'phone_register' : 'wechat_register';
}

export function createAccountsService(deps: AccountsServiceDeps) {
  const { db, codes, throttle } = deps;
  let dummyHash: Promise<string> | undefined;

  /** Always one scrypt per login try, so an unknown phone answers as slowly as a wrong password. */
  async function checkPassword(md5: string, hash: string | null): Promise<boolean> {
    if (hash) return verifyPassword(md5, hash);
    dummyHash ??= createDummyHash(deps.password);
    await verifyPassword(md5, await dummyHash);
    return false;
  }

  async function userInfoOf(user: UserRecord): Promise<UserInfo> {
    let entitlements = await listEntitlementsOf(db, user.id);
    // No set yet (an account created before registration granted it): grant it now, unless its
    // phone or WeChat already earned one on an earlier account — then say so.
    let earnedBefore = false;
    if (entitlements.length === 0) {
      earnedBefore = await wasGrantEarnedBefore(db, user, deps.digestKey);
      if (!earnedBefore) {
        await db
          .transaction()
          .execute((tx) => grantOnBinding(tx, user, registeredBy(user), deps.now(), deps.digestKey));
        entitlements = await listEntitlementsOf(db, user.id);
      }
    }
    return toUserInfo(toAccountUser(user), entitlements, { entitlementsEarnedBefore: earnedBefore });
  }

  async function loadActiveUser(userId: string): Promise<UserRecord> {
    const user = await findUserById(db, userId);
    if (user?.status !== 'active') throw new AppError(ErrorCode.UNAUTHORIZED);
    return user;
  }

  return {
    /**
     * /sendCheckCode. Types 1 (register) and 3 (reset) send to any valid number and answer the same
     * whether or not it has an account: only the phone's owner, holding the code, learns that at the
     * next step. Types 2 (bind) and 4 (deletion) need a login; 4 only to the account's own phone.
     */
    async sendCheckCode(input: {
      phone: string;
      purpose: SmsCodePurpose;
      client: ClientInfo;
      auth: AuthenticatedUser | null;
      captcha?: { captchaId?: string; captchaCode?: string };
    }): Promise<void> {
      let userId: string | null = null;
      if (input.purpose === '2' || input.purpose === '4') {
        if (!input.auth) throw new AppError(ErrorCode.UNAUTHORIZED);
        const user = input.auth.user;
        userId = user.id;
        if (input.purpose === '2' && user.phoneNumber) throw new AppError(ErrorCode.ALREADY_HAS_PHONE);
        if (input.purpose === '4') {
          if (!user.phoneNumber) throw new AppError(ErrorCode.PHONE_NOT_BOUND);
          if (user.phoneNumber !== input.phone) throw new AppError(ErrorCode.PHONE_MISMATCH);
        }
      }
      await codes.send({
        phone: input.phone,
        purpose: input.purpose,
        clientIp: input.client.ip,
        userId,
        captcha: input.captcha,
      });
    },

    /** /addUserByPhone: a new account with phone and password, logged in at once. Returns the token. */
    async register(input: { phone: string; code: string; md5: string; client: ClientInfo }): Promise<string> {
      const codeId = await codes.verify({
        phone: input.phone,
        purpose: '1',
        code: input.code,
        clientIp: input.client.ip,
      });
      const passwordHash = await hashPassword(input.md5, deps.password);
      const now = deps.now();
      try {
        return await db.transaction().execute(async (tx) => {
          await codes.consume(tx, codeId);
          if (await findUserByPhone(tx, input.phone)) throw new AppError(ErrorCode.PHONE_REGISTERED);
          const user = await insertUser(tx, { phoneNumber: input.phone, passwordHash, now });
          await grantOnBinding(tx, user, 'phone_register', now, deps.digestKey);
          return startSession(tx, { userId: user.id, method: 'register', now, client: input.client });
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError(ErrorCode.PHONE_REGISTERED, undefined, { cause: error });
        throw error;
      }
    },

    /**
     * /login with phone and MD5 password. Unknown phone, account without password and wrong
     * password all answer LOGIN_FAILED after the same work; repeated failures are slowed then locked.
     */
    async login(input: { phone: string; md5: string; client: ClientInfo }): Promise<string> {
      const attemptId = await throttle.begin(input.phone, input.client.ip);
      const user = await findUserByPhone(db, input.phone);
      const hash = user?.status === 'active' ? user.passwordHash : null;
      const isValid = await checkPassword(input.md5, hash);
      if (!user || !hash || !isValid) {
        await throttle.failed(attemptId);
        throw new AppError(ErrorCode.LOGIN_FAILED);
      }
      await throttle.succeeded(attemptId);
      const now = deps.now();
      if (needsRehash(hash, deps.password)) {
        await updatePasswordHash(db, user.id, await hashPassword(input.md5, deps.password), now, {
          rehashOnly: true,
        });
      }
      return db.transaction().execute(async (tx) => {
        await updateLastLogin(tx, user.id, now);
        return startSession(tx, { userId: user.id, method: 'password', now, client: input.client });
      });
    },

    /** /resetPassword: new password by SMS code (type 3); every session of the account ends. */
    async resetPassword(input: {
      phone: string;
      code: string;
      md5: string;
      client: ClientInfo;
    }): Promise<void> {
      const codeId = await codes.verify({
        phone: input.phone,
        purpose: '3',
        code: input.code,
        clientIp: input.client.ip,
      });
      const passwordHash = await hashPassword(input.md5, deps.password);
      const now = deps.now();
      await db.transaction().execute(async (tx) => {
        await codes.consume(tx, codeId);
        const user = await findUserByPhone(tx, input.phone);
        if (!user) throw new AppError(ErrorCode.PHONE_NOT_REGISTERED);
        await updatePasswordHash(tx, user.id, passwordHash, now);
        await revokeUserSessions(tx, user.id, 'password_reset', now);
      });
      await throttle.reset(input.phone, input.client.ip);
    },

    /** The caller's own account as the wire shows it. */
    async getUserInfo(userId: string): Promise<UserInfo> {
      return userInfoOf(await loadActiveUser(userId));
    },

    /** /websiteUser/updateUserInfo: only the fields given change; null or '' clears one. */
    async updateProfile(userId: string, fields: ProfileFields): Promise<UserInfo> {
      const user = await updateProfile(db, userId, fields, deps.now());
      if (!user) throw new AppError(ErrorCode.UNAUTHORIZED);
      return userInfoOf(user);
    },

    /**
     * /websiteUser/passwordChange: only for accounts with a phone (spec §6); the old password is
     * checked like a login (failures count towards the phone's lockout). Other sessions end.
     */
    async changePassword(
      auth: AuthenticatedUser,
      input: { oldMd5: string; newMd5: string; client: ClientInfo },
    ): Promise<void> {
      const user = await loadActiveUser(auth.userId);
      if (!user.phoneNumber) throw new AppError(ErrorCode.PHONE_NOT_BOUND);
      if (!user.passwordHash) throw new AppError(ErrorCode.NO_PASSWORD_SET);
      const attemptId = await throttle.begin(user.phoneNumber, input.client.ip);
      if (!(await verifyPassword(input.oldMd5, user.passwordHash))) {
        await throttle.failed(attemptId);
        throw new AppError(ErrorCode.OLD_PASSWORD_WRONG);
      }
      await throttle.succeeded(attemptId);
      if (input.oldMd5 === input.newMd5) throw new AppError(ErrorCode.PASSWORD_UNCHANGED);
      const passwordHash = await hashPassword(input.newMd5, deps.password);
      const now = deps.now();
      await db.transaction().execute(async (tx) => {
        await updatePasswordHash(tx, user.id, passwordHash, now);
        await revokeUserSessions(tx, user.id, 'password_change', now, auth.sessionId);
      });
    },

    /**
     * /websiteUser/bindPhoneNumber (type-2 code). An empty password sets none (decision 0005).
     * The first binding of the account grants the free services.
     */
    async bindPhone(
      auth: AuthenticatedUser,
      input: { phone: string; code: string; md5: string | undefined; profile: ProfileFields },
    ): Promise<UserInfo> {
      if (auth.user.phoneNumber) throw new AppError(ErrorCode.ALREADY_HAS_PHONE);
      const codeId = await codes.verify({
        phone: input.phone,
        purpose: '2',
        code: input.code,
        userId: auth.userId,
      });
      const passwordHash = input.md5 ? await hashPassword(input.md5, deps.password) : null;
      const now = deps.now();
      try {
        const user = await db.transaction().execute(async (tx) => {
          await codes.consume(tx, codeId);
          const current = await findUserByIdForUpdate(tx, auth.userId);
          if (current?.status !== 'active') throw new AppError(ErrorCode.UNAUTHORIZED);
          if (current.phoneNumber) throw new AppError(ErrorCode.ALREADY_HAS_PHONE);
          const owner = await findUserByPhone(tx, input.phone);
          if (owner) throw new AppError(ErrorCode.PHONE_BOUND_ELSEWHERE);
          const bound = await bindPhone(tx, auth.userId, {
            phoneNumber: input.phone,
            passwordHash,
            profile: input.profile,
            now,
          });
          if (!bound) throw new AppError(ErrorCode.CONFLICT);
          await grantOnBinding(tx, bound, 'phone_bind', now, deps.digestKey);
          return bound;
        });
        return userInfoOf(user);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError(ErrorCode.PHONE_BOUND_ELSEWHERE, undefined, { cause: error });
        }
        throw error;
      }
    },

    /**
     * /websiteUser/queryIsUsePhone: whether a phone has an account. This is the one answer that
     * tells, so it is limited per client IP (10 a minute, 100 a day).
     */
    async isPhoneUsed(phone: string, client: ClientInfo): Promise<boolean> {
      const now = deps.now();
      await db.transaction().execute(async (tx) => {
        await lockKey(tx, `query-phone:${client.ip}`);
        const since = new Date(now.getTime() - longestWindow(QUERY_PHONE_LIMITS));
        const times = await listRateEvents(tx, 'query_phone', client.ip, since);
        if (findLimitHit(times, QUERY_PHONE_LIMITS, now)) {
          throw new AppError(ErrorCode.RATE_LIMITED, TEXTS.queryPhoneLimit);
        }
        await insertRateEvent(tx, 'query_phone', client.ip, now);
      });
      return (await findUserByPhone(db, phone)) !== undefined;
    },

    /** /user/logout: the session of this token ends on the server. */
    async logout(auth: AuthenticatedUser): Promise<void> {
      await revokeSession(db, auth.sessionId, 'logout', deps.now());
    },

    /** /websiteUser/deleteAccount by SMS code (type 4, sent to the account's own phone). */
    async deleteAccountBySms(auth: AuthenticatedUser, code: string, client: ClientInfo): Promise<void> {
      const user = await loadActiveUser(auth.userId);
      if (!user.phoneNumber) throw new AppError(ErrorCode.PHONE_NOT_BOUND);
      const codeId = await codes.verify({
        phone: user.phoneNumber,
        purpose: '4',
        code,
        userId: user.id,
        clientIp: client.ip,
      });
      const now = deps.now();
      await db.transaction().execute(async (tx) => {
        await codes.consume(tx, codeId);
        await eraseAccount(db, tx, user.id, 'deleted', now, deps.digestKey, deps.hooks);
      });
    },

    /**
     * /websiteUser/deleteAccount with `passWord`: the logged-in session plus the account's password,
     * for when no new SMS can be had (issue 22). Throttled like a login (the same per-phone and
     * per-address failure counts), so a stolen session cannot guess the password.
     * @throws AppError NO_PASSWORD_SET | OLD_PASSWORD_WRONG | LOGIN_THROTTLED | LOGIN_LOCKED
     */
    async deleteAccountByPassword(auth: AuthenticatedUser, md5: string, client: ClientInfo): Promise<void> {
      const user = await loadActiveUser(auth.userId);
      if (!user.passwordHash || !user.phoneNumber) throw new AppError(ErrorCode.NO_PASSWORD_SET);
      const attemptId = await throttle.begin(user.phoneNumber, client.ip);
      if (!(await verifyPassword(md5, user.passwordHash))) {
        await throttle.failed(attemptId);
        throw new AppError(ErrorCode.OLD_PASSWORD_WRONG, TEXTS.deletionPasswordWrong);
      }
      await throttle.succeeded(attemptId);
      await db.transaction().execute(async (tx) => {
        await eraseAccount(db, tx, user.id, 'deleted', deps.now(), deps.digestKey, deps.hooks);
      });
    },

    /** /websiteUser/exportData. */
    async exportData(userId: string) {
      await loadActiveUser(userId);
      const data = await buildAccountExport(db, userId, deps.now(), deps.hooks);
      // Recorded for the console (who asked, when; nothing of the data): migration 0044.
      await recordAccountRequest(db, userId, 'export', deps.now());
      return data;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
