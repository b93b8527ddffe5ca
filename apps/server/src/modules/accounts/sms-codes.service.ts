import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, SmsCodePurpose } from '@kyfw/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { SmsInvalidPhoneError, type SmsProvider, SmsRateLimitedError } from '../../providers/sms/index.ts';
import {
  MINUTE_MS,
  type SendLimit,
  SMS_CODE_MAX_ATTEMPTS,
  SMS_CODE_TTL_MS,
  SMS_IP_FAILURE_WINDOW_MS,
  SMS_PHONE_LIMITS,
} from './accounts.policy.ts';
import { formatWait, TEXTS } from './accounts.texts.ts';
import { type CaptchaService, listAddressFailures, recordAddressFailure } from './captcha.ts';
import { findLimitHit, type LimitHit, longestWindow } from './rate-limit.ts';
import { generateSmsCode, safeEqualHex, sha256Hex } from './secrets.ts';
import {
  consumeCode,
  deleteSmsCode,
  findLatestCode,
  insertSmsCode,
  listRecentSends,
  lockKey,
  recordWrongAttempt,
  supersedeOlderCodes,
} from './sms-codes.repo.ts';

export interface SmsCodeService {
  /**
   * Sends a new six-digit code for `purpose` to `phone` (valid 5 minutes; replaces earlier codes of
   * the same phone and purpose), within the per-phone and per-IP limits (accounts.policy.ts: one a
   * minute per purpose, the hourly and daily caps for all purposes together).
   * @throws AppError SMS_SEND_LIMITED (message says how long to wait) | SMS_SEND_FAILED | VALIDATION
   */
  send(input: {
    phone: string;
    purpose: SmsCodePurpose;
    clientIp: string;
    userId: string | null;
    /** The picture check, needed once the address has sent SMS_IP_CAPTCHA_AFTER codes this hour. */
    captcha?: { captchaId?: string; captchaCode?: string };
  }): Promise<void>;
  /**
   * Checks `code` against the latest code of phone + purpose (and, for bind/delete codes, the account
   * that asked). A wrong code costs one of its 5 tries, and counts as a failure of `clientIp`.
   * Returns the code id to `consume`.
   * @throws AppError SMS_CODE_WRONG | SMS_CODE_EXPIRED | SMS_CODE_TOO_MANY_TRIES
   */
  verify(input: {
    phone: string;
    purpose: SmsCodePurpose;
    code: string;
    userId?: string | null;
    clientIp?: string;
  }): Promise<string>;
  /**
   * Uses a verified code up, in the caller's transaction; exactly one of racing callers succeeds.
   * @throws AppError SMS_CODE_EXPIRED when another request used it first (or it expired meanwhile)
   */
  consume(tx: Kysely<Database>, codeId: string): Promise<void>;
}

function codeHash(codeId: string, code: string): string {
  return sha256Hex(`${codeId}:${code}`);
}

/**
 * The broken limit that lasts longest for one more code of `purpose`, or null: a `perPurpose`
 * limit counts the earlier codes of that purpose only, the others count every code.
 */
function findSendLimitHit(
  sends: readonly { sentAt: Date; purpose: SmsCodePurpose }[],
  limits: readonly SendLimit[],
  purpose: SmsCodePurpose,
  now: Date,
): LimitHit | null {
  const all = sends.map((s) => s.sentAt);
  const samePurpose = sends.filter((s) => s.purpose === purpose).map((s) => s.sentAt);
  const hits = [
    findLimitHit(
      samePurpose,
      limits.filter((l) => l.perPurpose),
      now,
    ),
    findLimitHit(
      all,
      limits.filter((l) => !l.perPurpose),
      now,
    ),
  ].filter((h) => h !== null);
  return hits.sort((a, b) => b.waitMs - a.waitMs)[0] ?? null;
}

export function createSmsCodeService(deps: {
  db: Kysely<Database>;
  sms: SmsProvider;
  now: () => Date;
  ipLimits: readonly SendLimit[];
  /** Sends of an address in an hour after which each send needs a picture check. */
  captchaAfter: number;
  /** Failures of an address in an hour that block its sends. */
  maxFailuresPerHour: number;
  captcha: CaptchaService;
  logger: Logger;
}): SmsCodeService {
  const { db } = deps;

  function limitError(waitMs: number, limit: SendLimit): AppError {
    const wait = formatWait(waitMs);
    const text = limit.windowMs <= MINUTE_MS ? TEXTS.smsTooFrequent(wait) : TEXTS.smsLimitReached(wait);
    return new AppError(ErrorCode.SMS_SEND_LIMITED, text);
  }

  return {
    async send({ phone, purpose, clientIp, userId, captcha }) {
      const id = randomUUID();
      const code = generateSmsCode();
      const now = deps.now();

      // The address: blocked by its failures (not by its sends), and past a few sends this hour it
      // must pass a picture check — before anything is counted, outside the transaction, so that a
      // wrong answer is recorded as a failure.
      const hourAgo = new Date(now.getTime() - SMS_IP_FAILURE_WINDOW_MS);
      const failures = await listAddressFailures(db, clientIp, hourAgo);
      if (failures.length >= deps.maxFailuresPerHour) {
        const oldestCounted = failures[deps.maxFailuresPerHour - 1]!;
        const waitMs = oldestCounted.getTime() + SMS_IP_FAILURE_WINDOW_MS - now.getTime();
        throw new AppError(ErrorCode.SMS_SEND_LIMITED, TEXTS.smsAddressFailures(formatWait(waitMs)));
      }
      const sentThisHour = (await listRecentSends(db, { clientIp }, hourAgo)).length;
      if (sentThisHour >= deps.captchaAfter) await deps.captcha.pass(clientIp, captcha ?? {});

      await db.transaction().execute(async (tx) => {
        await lockKey(tx, `sms:phone:${phone}`);
        await lockKey(tx, `sms:ip:${clientIp}`);
        const byPhone = await listRecentSends(
          tx,
          { phone },
          new Date(now.getTime() - longestWindow(SMS_PHONE_LIMITS)),
        );
        const phoneHit = findSendLimitHit(byPhone, SMS_PHONE_LIMITS, purpose, now);
        const byIp = await listRecentSends(
          tx,
          { clientIp },
          new Date(now.getTime() - longestWindow(deps.ipLimits)),
        );
        const ipHit = findSendLimitHit(byIp, deps.ipLimits, purpose, now);
        const hit = [phoneHit, ipHit].filter((h) => h !== null).sort((a, b) => b.waitMs - a.waitMs)[0];
        if (hit) throw limitError(hit.waitMs, hit.limit);
        await insertSmsCode(tx, {
          id,
          phone,
          purpose,
          codeHash: codeHash(id, code),
          userId,
          clientIp,
          now,
          expiresAt: new Date(now.getTime() + SMS_CODE_TTL_MS),
        });
      });

      // The provider call happens outside the transaction: a slow SMS gateway must not hold the
      // database (PGlite has a single connection). A failed send is forgotten entirely.
      try {
        await deps.sms.send({ phone, purpose, params: { code } });
      } catch (error) {
        await deleteSmsCode(db, id);
        deps.logger.warn({ err: error, purpose }, 'sms send failed');
        if (error instanceof SmsInvalidPhoneError) {
          throw new AppError(ErrorCode.VALIDATION, '请输入正确的手机号', { cause: error });
        }
        if (error instanceof SmsRateLimitedError) {
          throw new AppError(ErrorCode.SMS_SEND_LIMITED, undefined, { cause: error });
        }
        throw new AppError(ErrorCode.SMS_SEND_FAILED, undefined, { cause: error });
      }
      await supersedeOlderCodes(db, { phone, purpose, keepId: id, now });
    },

    async verify({ phone, purpose, code, userId, clientIp }) {
      const now = deps.now();
      const latest = await findLatestCode(db, phone, purpose);
      // A bind/delete code belongs to the account that asked for it.
      const isOwn = !latest?.userId || latest.userId === userId;
      if (!latest || latest.consumedAt || !isOwn) {
        throw new AppError(ErrorCode.SMS_CODE_EXPIRED, TEXTS.smsCodeMissing);
      }
      if (latest.attempts >= SMS_CODE_MAX_ATTEMPTS) throw new AppError(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
      if (latest.expiresAt.getTime() <= now.getTime()) {
        throw new AppError(ErrorCode.SMS_CODE_EXPIRED, TEXTS.smsCodeExpired);
      }
      if (!safeEqualHex(codeHash(latest.id, code), latest.codeHash)) {
        if (clientIp) await recordAddressFailure(db, clientIp, 'wrong_code', now);
        const attempts = await recordWrongAttempt(db, latest.id, SMS_CODE_MAX_ATTEMPTS);
        if (attempts === undefined || attempts >= SMS_CODE_MAX_ATTEMPTS) {
          throw new AppError(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
        }
        throw new AppError(ErrorCode.SMS_CODE_WRONG, TEXTS.smsCodeWrong(SMS_CODE_MAX_ATTEMPTS - attempts));
      }
      return latest.id;
    },

    async consume(tx, codeId) {
      const used = await consumeCode(tx, codeId, deps.now(), SMS_CODE_MAX_ATTEMPTS);
      if (!used) throw new AppError(ErrorCode.SMS_CODE_EXPIRED, TEXTS.smsCodeMissing);
    },
  };
}
