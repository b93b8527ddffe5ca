import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { loadOrCreateSecretFile } from '../../lib/secret-file.ts';

/**
 * Tokens, hashes and the password hash of the accounts module. Nothing secret is ever stored in
 * clear: session tokens and SMS codes as SHA-256, passwords under scrypt. Identifiers kept after an
 * account is gone (phone numbers and WeChat openids that earned the free services) only as an
 * HMAC-SHA256 under the server's digest secret, which never goes into the database.
 */

/** A session token: 32 random bytes as 64 lowercase hex characters. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('hex');
}

/** An unguessable id for a WeChat QR session (the spec's `userId`): 32 random bytes, base64url (43 chars). */
export function generateQrSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** A WeChat QR scene string (<= 64 characters): 18 random bytes, base64url. */
export function generateScene(): string {
  return `k${randomBytes(18).toString('base64url')}`;
}

/** The browser cookie that binds a login QR to the browser that asked for it: 32 random bytes, base64url. */
export function generateBrowserKey(): string {
  return randomBytes(32).toString('base64url');
}

/** A six-digit SMS check code, uniformly random (leading zeros allowed). */
export function generateSmsCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex strings of equal expected length. */
export function safeEqualHex(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

// ---------------------------------------------------------------------------------------------
// Passwords. The browser sends MD5(password) as 32 hex characters (spec §7); that MD5 is a
// password-equivalent, so it is stored only under scrypt with a per-user random salt. The encoded
// hash carries its own parameters, so raising the cost later keeps old hashes verifiable (and they
// are re-hashed at the next successful login).

const SCRYPT_R = 8;
const SCRYPT_P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export interface PasswordHashParams {
  /** log2 of scrypt's N (CPU/memory cost); 15 = 32768, about 32 MiB and tens of milliseconds. */
  logN: number;
}

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: scrypt needs 128 * N * r bytes; allow twice that.
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$<N>$<r>$<p>$<salt>$<key>` (salt and key base64url) of the MD5 hex the browser sent. */
export async function hashPassword(md5Hex: string, params: PasswordHashParams): Promise<string> {
  const n = 2 ** params.logN;
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(md5Hex.toLowerCase(), salt, n, SCRYPT_R, SCRYPT_P);
  return ['scrypt', n, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `md5Hex` matches the stored hash; false for a malformed hash. Constant time in the key. */
export async function verifyPassword(md5Hex: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(md5Hex.toLowerCase(), salt, n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when the stored hash uses other parameters than the current ones (re-hash after login). */
export function needsRehash(encoded: string, params: PasswordHashParams): boolean {
  const parts = encoded.split('$');
  return !(
    parts[1] === String(2 ** params.logN) &&
    parts[2] === String(SCRYPT_R) &&
    parts[3] === String(SCRYPT_P)
  );
}

/**
 * A hash of nothing anyone knows, verified against when a phone has no account or no password, so
 * that "no such phone" takes as long as "wrong password" and timing reveals no registration.
 */
export async function createDummyHash(params: PasswordHashParams): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), params);
}

// ---------------------------------------------------------------------------------------------
// Identifier digests. A phone number has about 10^10 possible values, so a plain hash of one is
// reversed by trying them all; under a secret key (HMAC-SHA256) the digest can only be computed —
// and so a number only be recognised — by whoever holds the key, i.e. this server.

/** What an identifier digest is of; part of the HMAC input, so a phone and an openid never collide. */
export type IdentifierKind = 'phone' | 'wechat';

/** HMAC-SHA256 of "<kind>:<value>" under `key`, as 64 lowercase hex characters. */
export function identifierDigest(key: string, kind: IdentifierKind, value: string): string {
  return createHmac('sha256', key).update(`${kind}:${value}`, 'utf8').digest('hex');
}

/** The file under DATA_DIR/secrets holding the generated digest key (embedded mode). */
export const DIGEST_KEY_FILE = 'account-digest.key';

/**
 * The identifier-digest key: the configured one (ACCOUNT_DIGEST_SECRET), else one generated once
 * into DATA_DIR/secrets/account-digest.key (mode 0600) and reused. The key must stay the same for as
 * long as the digests are kept: a new key makes every recorded digest unrecognisable.
 * @throws Error in production with DATABASE_URL and no configured key: every machine must share one.
 */
export function loadDigestKey(options: {
  configured?: string;
  dataDir: string;
  nodeEnv: string;
  databaseUrl?: string;
}): string {
  if (options.configured) return options.configured;
  if (options.nodeEnv === 'production' && options.databaseUrl) {
    throw new Error(
      'ACCOUNT_DIGEST_SECRET is required with DATABASE_URL in production (all machines share it)',
    );
  }
  return loadOrCreateSecretFile(options.dataDir, DIGEST_KEY_FILE);
}
