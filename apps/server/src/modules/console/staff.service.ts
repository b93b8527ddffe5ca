import { randomInt, randomUUID } from 'node:crypto';
import { ErrorCode, STAFF_ROLE_TEXTS, type Staff } from '@kyfw/contracts';
import type { Database, Kysely, StaffRole } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import {
  createDummyHash,
  generateSessionToken,
  hashPassword,
  sha256Hex,
  verifyPassword,
} from '../accounts/secrets.ts';
import { TEXTS } from './console.texts.ts';
import {
  deleteSession,
  findSession,
  findStaffByUsername,
  insertSession,
  insertStaff,
  recordFailedLogin,
  recordSuccessfulLogin,
  touchSession,
} from './staff.repo.ts';
import { generateTotpSecret, verifyTotp } from './totp.ts';

/** Staff login policy (docs/decisions: staff auth). */
export const STAFF_POLICY = {
  /** Consecutive failures (wrong password or TOTP) before the account locks. */
  maxFailedLogins: 5,
  lockMinutes: 15,
  /** A session ends after this long without a call… */
  idleMinutes: 30,
  /** …and in any case this long after login. */
  absoluteHours: 12,
  passwordLength: 20,
} as const;

const MINUTE = 60_000;
const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export interface StaffSession {
  staffId: string;
  username: string;
  role: StaffRole;
  tokenHash: string;
  expiresAt: Date;
}

export interface StaffService {
  now(): Date;
  create(input: {
    username: string;
    role: StaffRole;
  }): Promise<{ username: string; password: string; totpSecret: string }>;
  login(input: {
    username: string;
    password: string;
    totpCode: string;
    ip: string | null;
  }): Promise<{ token: string; session: StaffSession }>;
  /** The session of a cookie token: found and fresh (its idle expiry moves forward), or an AppError. */
  authenticate(token: string): Promise<StaffSession>;
  logout(tokenHash: string): Promise<void>;
}

export class StaffLoginError extends AppError {
  /** Why, for the audit log (the caller only sees the message). */
  readonly reason: string;
  readonly staffId: string | null;
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    message: string,
    reason: string,
    staffId: string | null,
  ) {
    super(code, message);
    this.reason = reason;
    this.staffId = staffId;
  }
}

/** A session as the console sees it. */
export function toStaffView(session: StaffSession): Staff {
  return {
    username: session.username,
    role: session.role,
    roleText: STAFF_ROLE_TEXTS[session.role],
    expiresAt: session.expiresAt.toISOString(),
  };
}

export function generateStaffPassword(): string {
  let out = '';
  for (let i = 0; i < STAFF_POLICY.passwordLength; i++)
    out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

export function createStaffService(deps: {
  db: Kysely<Database>;
  scryptCost: number;
  now?: () => Date;
}): StaffService {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  let dummyHash: Promise<string> | undefined;

  function sessionExpiry(createdAt: Date, at: Date): Date {
    const idle = at.getTime() + STAFF_POLICY.idleMinutes * MINUTE;
    const absolute = createdAt.getTime() + STAFF_POLICY.absoluteHours * 60 * MINUTE;
    return new Date(Math.min(idle, absolute));
  }

  return {
    now,

    async create({ username, role }) {
      const password = generateStaffPassword();
      const totpSecret = generateTotpSecret();
      const created = await insertStaff(db, {
        id: randomUUID(),
        username,
        role,
        passwordHash: await hashPassword(password, { logN: deps.scryptCost }),
        totpSecret,
      });
      if (!created) throw new AppError(ErrorCode.CONFLICT, `用户名 ${username} 已存在`);
      return { username, password, totpSecret };
    },

    async login({ username, password, totpCode, ip }) {
      const at = now();
      const staff = await findStaffByUsername(db, username.toLowerCase());
      if (!staff) {
        // As slow as a real check, so timing does not tell which usernames exist.
        dummyHash ??= createDummyHash({ logN: deps.scryptCost });
        await verifyPassword(password, await dummyHash);
        throw new StaffLoginError(ErrorCode.UNAUTHORIZED, TEXTS.loginFailed, 'unknown username', null);
      }
      if (staff.locked_until && staff.locked_until.getTime() > at.getTime()) {
        const minutes = Math.ceil((staff.locked_until.getTime() - at.getTime()) / MINUTE);
        throw new StaffLoginError(ErrorCode.LOGIN_LOCKED, TEXTS.locked(minutes), 'locked', staff.id);
      }
      if (staff.disabled)
        throw new StaffLoginError(ErrorCode.FORBIDDEN, TEXTS.disabled, 'disabled', staff.id);
      const passwordOk = await verifyPassword(password, staff.password_hash);
      const lastStep = staff.last_totp_step === null ? null : Number(staff.last_totp_step);
      const step = passwordOk ? verifyTotp(staff.totp_secret, totpCode, at, lastStep) : null;
      if (!passwordOk || step === null) {
        const result = await recordFailedLogin(
          db,
          staff.id,
          STAFF_POLICY.maxFailedLogins,
          new Date(at.getTime() + STAFF_POLICY.lockMinutes * MINUTE),
        );
        const reason = passwordOk ? 'wrong totp' : 'wrong password';
        if (result.locked) {
          throw new StaffLoginError(
            ErrorCode.LOGIN_LOCKED,
            TEXTS.locked(STAFF_POLICY.lockMinutes),
            reason,
            staff.id,
          );
        }
        throw new StaffLoginError(ErrorCode.UNAUTHORIZED, TEXTS.loginFailed, reason, staff.id);
      }
      if (!(await recordSuccessfulLogin(db, staff.id, step))) {
        throw new StaffLoginError(ErrorCode.UNAUTHORIZED, TEXTS.loginFailed, 'totp replayed', staff.id);
      }
      const token = generateSessionToken();
      const session: StaffSession = {
        staffId: staff.id,
        username: staff.username,
        role: staff.role,
        tokenHash: sha256Hex(token),
        expiresAt: sessionExpiry(at, at),
      };
      await insertSession(db, {
        tokenHash: session.tokenHash,
        staffId: staff.id,
        createdAt: at,
        expiresAt: session.expiresAt,
        ip,
      });
      return { token, session };
    },

    async authenticate(token) {
      const at = now();
      const tokenHash = sha256Hex(token);
      const row = await findSession(db, tokenHash);
      if (!row || row.disabled) {
        throw new StaffLoginError(
          ErrorCode.UNAUTHORIZED,
          TEXTS.notLoggedIn,
          'unknown session',
          row?.staffId ?? null,
        );
      }
      if (row.expires_at.getTime() <= at.getTime()) {
        await deleteSession(db, tokenHash);
        throw new StaffLoginError(
          ErrorCode.UNAUTHORIZED,
          TEXTS.sessionExpired,
          'session expired',
          row.staffId,
        );
      }
      const expiresAt = sessionExpiry(row.created_at, at);
      await touchSession(db, tokenHash, expiresAt);
      return { staffId: row.staffId, username: row.username, role: row.role, tokenHash, expiresAt };
    },

    async logout(tokenHash) {
      await deleteSession(db, tokenHash);
    },
  };
}

/** A cookie value that can be a session token (64 hex), so nothing else reaches the database. */
export function isSessionToken(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
