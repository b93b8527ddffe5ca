import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
} from 'node:crypto';
import type { Config } from '../../config.ts';
import { loadOrCreateSecretFile } from '../../lib/secret-file.ts';

/**
 * The staff accounts' secrets at rest: the TOTP secret encrypted (AES-256-GCM) and the recovery
 * codes as HMAC-SHA256, both under STAFF_SECRET_KEY, which never goes into the database — a copy
 * of the database alone neither yields a working authenticator nor a usable recovery code.
 */

/** The file under DATA_DIR/secrets holding the generated key (embedded mode). */
export const STAFF_KEY_FILE = 'staff-secret.key';

/**
 * The configured key (STAFF_SECRET_KEY), else one generated once into DATA_DIR/secrets (0600).
 * Losing the key makes every TOTP secret unreadable: each staff member's 2FA then has to be reset
 * (the CLI can create a new admin).
 * @throws Error in production with DATABASE_URL and no configured key: every machine must share one.
 */
export function staffKeyOf(config: Pick<Config, 'console' | 'dataDir' | 'nodeEnv' | 'databaseUrl'>): string {
  if (config.console.secretKey) return config.console.secretKey;
  if (config.nodeEnv === 'production' && config.databaseUrl) {
    throw new Error('STAFF_SECRET_KEY is required with DATABASE_URL in production (all machines share it)');
  }
  return loadOrCreateSecretFile(config.dataDir, STAFF_KEY_FILE);
}

const PREFIX = 'enc1:';

export interface StaffCipher {
  /** The TOTP secret as stored: "enc1:<iv>.<tag>.<ciphertext>" (base64url), under the current key. */
  seal(totpSecret: string): string;
  /**
   * The TOTP secret of a stored value, sealed under the current or the previous key (a plain base32
   * secret from before migration 0030 as it is). @throws Error when neither key opens it.
   */
  open(stored: string): string;
  /** Whether a stored value is still in clear (to be sealed at the next login). */
  isSealed(stored: string): boolean;
  /** The digest kept of a recovery code (64 hex), under the recovery MAC key. */
  codeDigest(code: string): Promise<string>;
}

/** The AES key of a STAFF_SECRET_KEY. */
const aesKeyOf = (key: string) => createHash('sha256').update(`kyfw staff totp\0${key}`).digest();
/** The recovery codes' MAC key as first derived from a STAFF_SECRET_KEY (before any rotation). */
export const derivedMacKeyOf = (key: string) =>
  createHash('sha256').update(`kyfw staff recovery\0${key}`).digest();

/** Seals a value (a TOTP secret, or a key as base64url) under one STAFF_SECRET_KEY. */
export function sealWith(key: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKeyOf(key), iv);
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${PREFIX}${iv.toString('base64url')}.${tag.toString('base64url')}.${data.toString('base64url')}`;
}

/** The value sealed under `key`, or undefined when `key` does not open it (a wrong key, or tampered). */
export function openWith(key: string, stored: string): string | undefined {
  const [iv, tag, data] = stored.slice(PREFIX.length).split('.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKeyOf(key), Buffer.from(iv ?? '', 'base64url'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data ?? '', 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
}

export const isSealedValue = (stored: string) => stored.startsWith(PREFIX);

/** The name of the recovery codes' MAC key in staff_sealed_keys (moved there by a rotation). */
export const RECOVERY_MAC_KEY = 'recovery-mac';

/**
 * The cipher of the staff secrets: seals under `keys.current`, opens under it or `keys.previous`
 * (STAFF_SECRET_KEY_PREVIOUS, during a rotation). The recovery codes' MAC key is the one a rotation
 * sealed into staff_sealed_keys (`loadSealedMacKey`), else the one derived from the key the codes
 * were made with — the previous key while one is set, else the current one.
 */
export function createStaffCipher(
  keys: string | { current: string; previous?: string | undefined },
  loadSealedMacKey?: () => Promise<string | undefined>,
): StaffCipher {
  const { current, previous } = typeof keys === 'string' ? { current: keys, previous: undefined } : keys;
  let macKey: Promise<Buffer> | undefined;
  const open = (stored: string): string => {
    if (!isSealedValue(stored)) return stored;
    const value = openWith(current, stored) ?? (previous ? openWith(previous, stored) : undefined);
    if (value === undefined) throw new Error('staff secret sealed under an unknown key (STAFF_SECRET_KEY)');
    return value;
  };
  async function resolveMacKey(): Promise<Buffer> {
    const sealed = await loadSealedMacKey?.();
    if (sealed !== undefined) return Buffer.from(open(sealed), 'base64url');
    return derivedMacKeyOf(previous ?? current);
  }
  return {
    seal: (totpSecret) => sealWith(current, totpSecret),
    open,
    isSealed: isSealedValue,
    async codeDigest(code) {
      macKey ??= resolveMacKey().catch((error: unknown) => {
        macKey = undefined;
        throw error;
      });
      return createHmac('sha256', await macKey)
        .update(normaliseRecoveryCode(code))
        .digest('hex');
    },
  };
}

/** Recovery codes per account. */
export const RECOVERY_CODE_COUNT = 10;
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "xxxxx-xxxxx": 10 characters of a 31-letter alphabet (~50 bits), easy to read and type. */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes: string[] = [];
  for (let n = 0; n < count; n++) {
    let code = '';
    for (let i = 0; i < 10; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    codes.push(`${code.slice(0, 5)}-${code.slice(5)}`);
  }
  return codes;
}

/** What a typed recovery code is compared as: lowercase, without spaces or the dash. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Whether a login's second factor looks like a recovery code rather than a 6-digit TOTP code. */
export function isRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code));
}

/** The otpauth URI an authenticator app reads (from the QR code or typed in). */
export function otpauthUri(username: string, totpSecret: string): string {
  return `otpauth://totp/kyfw:${encodeURIComponent(username)}?secret=${totpSecret}&issuer=kyfw`;
}
