import { randomInt, randomUUID } from 'node:crypto';
import { ErrorCode, STAFF_ROLE_TEXTS, type Staff, type StaffAccount } from '@kyfw/contracts';
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
  deleteStaffSessions,
  findSession,
  findStaffByUsername,
  insertRecoveryCodes,
  insertSession,
  insertStaff,
  listStaff,
  recordFailedLogin,
  recordSuccessfulLogin,
  replaceSecondFactor,
  sealTotpSecret,
  touchSession,
  updateStaff,
  useRecoveryCode,
} from './staff.repo.ts';
import { generateRecoveryCodes, isRecoveryCode, otpauthUri, type StaffCipher } from './staff-secrets.ts';
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
  /** Set by login when the second factor was a recovery code (for the audit log). */
  viaRecoveryCode?: boolean;
}

/** What a new account (or a reset second factor) shows once: to hand over, never stored in clear. */
export interface StaffCredentials {
  username: string;
  password: string;
  totpSecret: string;
  otpauthUri: string;
  recoveryCodes: string[];
}

export interface StaffRow {
  id: string;
  username: string;
  role: StaffRole;
  disabled: boolean;
  lockedUntil: Date | null;
  createdAt: Date;
  createdBy: string | null;
  lastLoginAt: Date | null;
  recoveryCodesLeft: number;
}

export interface StaffService {
  now(): Date;
  /** `createdBy`: the admin's username, or 'cli'. */
  create(input: { username: string; role: StaffRole; createdBy?: string }): Promise<StaffCredentials>;
  list(): Promise<StaffRow[]>;
  get(staffId: string): Promise<StaffRow>;
  /** Role and/or disabled; disabling ends the account's sessions at once. */
  update(staffId: string, change: { role?: StaffRole; disabled?: boolean }): Promise<StaffRow>;
  /** A new TOTP secret and new recovery codes (the old ones stop working, sessions end). */
  resetSecondFactor(staffId: string): Promise<Omit<StaffCredentials, 'password'>>;
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

/** A staff account as the console's staff page lists it. */
export function toStaffAccountView(row: StaffRow): StaffAccount {
  return {
    staffId: row.id,
    username: row.username,
    role: row.role,
    roleText: STAFF_ROLE_TEXTS[row.role],
    disabled: row.disabled,
    lockedUntil: row.lockedUntil?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    recoveryCodesLeft: row.recoveryCodesLeft,
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
  /**
   * Seals TOTP secrets and digests recovery codes under STAFF_SECRET_KEY (staff-secrets.ts). The
   * server and the CLI always pass one; without it (some tests) secrets are kept as before 0030 —
   * in clear, sealed by the server at the account's next login — and recovery codes as SHA-256.
   */
  cipher?: StaffCipher;
}): StaffService {
  const { db, cipher } = deps;
  const now = deps.now ?? (() => new Date());
  let dummyHash: Promise<string> | undefined;
  const seal = (secret: string) => (cipher ? cipher.seal(secret) : secret);
  const open = (stored: string) => (cipher ? cipher.open(stored) : stored);
  const codeDigest = async (code: string) =>
    cipher ? cipher.codeDigest(code) : sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
  const codeDigests = (codes: string[]) => Promise.all(codes.map(codeDigest));

  async function get(staffId: string): Promise<StaffRow> {
    const row = (await listStaff(db)).find((r) => r.id === staffId);
    if (!row) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.staffNotFound);
    return {
      id: row.id,
      username: row.username,
      role: row.role,
      disabled: row.disabled,
      lockedUntil: row.locked_until,
      createdAt: row.created_at,
      createdBy: row.created_by,
      lastLoginAt: row.last_login_at,
      recoveryCodesLeft: Number(row.recovery_left ?? 0),
    };
  }

  function sessionExpiry(createdAt: Date, at: Date): Date {
    const idle = at.getTime() + STAFF_POLICY.idleMinutes * MINUTE;
    const absolute = createdAt.getTime() + STAFF_POLICY.absoluteHours * 60 * MINUTE;
    return new Date(Math.min(idle, absolute));
  }

  return {
    now,

    async create({ username, role, createdBy }) {
      const password = generateStaffPassword();
      const totpSecret = generateTotpSecret();
      const recoveryCodes = generateRecoveryCodes();
      const id = randomUUID();
      const created = await insertStaff(db, {
        id,
        username,
        role,
        passwordHash: await hashPassword(password, { logN: deps.scryptCost }),
        totpSecret: seal(totpSecret),
        createdBy: createdBy ?? null,
      });
      if (!created) throw new AppError(ErrorCode.CONFLICT, TEXTS.usernameTaken(username));
      await insertRecoveryCodes(db, id, await codeDigests(recoveryCodes));
      return { username, password, totpSecret, otpauthUri: otpauthUri(username, totpSecret), recoveryCodes };
    },

    async list() {
      const rows = await listStaff(db);
      return Promise.all(rows.map((r) => get(r.id)));
    },

    get,

    async update(staffId, change) {
      await get(staffId);
      await updateStaff(db, staffId, change);
      if (change.disabled === true) await deleteStaffSessions(db, staffId);
      return get(staffId);
    },

    async resetSecondFactor(staffId) {
      const row = await get(staffId);
      const totpSecret = generateTotpSecret();
      const recoveryCodes = generateRecoveryCodes();
      await replaceSecondFactor(db, staffId, seal(totpSecret), await codeDigests(recoveryCodes));
      await deleteStaffSessions(db, staffId);
      return {
        username: row.username,
        totpSecret,
        otpauthUri: otpauthUri(row.username, totpSecret),
        recoveryCodes,
      };
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
      const recovery = isRecoveryCode(totpCode);
      let step: number | null = null;
      let secondFactorOk = false;
      if (passwordOk && recovery) {
        secondFactorOk = await useRecoveryCode(db, staff.id, await codeDigest(totpCode), at);
      } else if (passwordOk) {
        step = verifyTotp(open(staff.totp_secret), totpCode, at, lastStep);
        secondFactorOk = step !== null;
      }
      if (!passwordOk || !secondFactorOk) {
        const result = await recordFailedLogin(
          db,
          staff.id,
          STAFF_POLICY.maxFailedLogins,
          new Date(at.getTime() + STAFF_POLICY.lockMinutes * MINUTE),
        );
        const reason = !passwordOk ? 'wrong password' : recovery ? 'wrong recovery code' : 'wrong totp';
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
      if (!(await recordSuccessfulLogin(db, staff.id, step, at))) {
        throw new StaffLoginError(ErrorCode.UNAUTHORIZED, TEXTS.loginFailed, 'totp replayed', staff.id);
      }
      // A secret stored in clear before migration 0030 is sealed now.
      if (cipher && !cipher.isSealed(staff.totp_secret)) {
        await sealTotpSecret(db, staff.id, cipher.seal(staff.totp_secret));
      }
      const token = generateSessionToken();
      const session: StaffSession = {
        staffId: staff.id,
        username: staff.username,
        role: staff.role,
        tokenHash: sha256Hex(token),
        expiresAt: sessionExpiry(at, at),
        ...(recovery ? { viaRecoveryCode: true } : {}),
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
