import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The WeChat Pay API v3 signature scheme WECHATPAY2-SHA256-RSA2048 and the AEAD_AES_256_GCM
 * resource encryption, as pure functions shared by the adapter and the sandbox.
 * https://pay.weixin.qq.com/doc/v3/merchant/4012365334 (signing), 4012071382 (decryption)
 */

export const WECHATPAY_AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';

/** Platform signatures older or newer than this are refused (replay protection). */
export const WECHATPAY_MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/**
 * The request message we sign: `METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n`. The path is the
 * request target exactly as sent (with the query string); GET requests have an empty body.
 */
export function buildRequestSignMessage(
  method: string,
  pathWithQuery: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The message the platform signs on answers and notifications: `TIMESTAMP\nNONCE\nBODY\n`. */
export function buildResponseSignMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

export interface AuthorizationParts {
  mchid: string;
  nonce: string;
  signature: string;
  timestamp: string;
  serialNo: string;
}

/** `WECHATPAY2-SHA256-RSA2048 mchid="…",nonce_str="…",signature="…",timestamp="…",serial_no="…"`. */
export function buildAuthorization(parts: AuthorizationParts): string {
  return (
    `${WECHATPAY_AUTH_SCHEME} mchid="${parts.mchid}",nonce_str="${parts.nonce}",` +
    `signature="${parts.signature}",timestamp="${parts.timestamp}",serial_no="${parts.serialNo}"`
  );
}

/** Parses an Authorization header of our scheme; null when it is anything else. */
export function parseAuthorization(header: string | undefined): AuthorizationParts | null {
  if (!header?.startsWith(`${WECHATPAY_AUTH_SCHEME} `)) return null;
  const fields = new Map<string, string>();
  const re = /\s*([a-z_]+)="([^"]*)"\s*(?:,|$)/gy;
  const rest = header.slice(WECHATPAY_AUTH_SCHEME.length + 1);
  re.lastIndex = 0;
  let consumed = 0;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (fields.has(m[1]!)) return null;
    fields.set(m[1]!, m[2]!);
    consumed = re.lastIndex;
  }
  if (consumed !== rest.length) return null;
  const mchid = fields.get('mchid');
  const nonce = fields.get('nonce_str');
  const signature = fields.get('signature');
  const timestamp = fields.get('timestamp');
  const serialNo = fields.get('serial_no');
  if (!mchid || !nonce || !signature || !timestamp || !serialNo) return null;
  return { mchid, nonce, signature, timestamp, serialNo };
}

/** A 32-character random nonce of upper-case letters and digits. */
export function createNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(32);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** Unix seconds as the decimal string WeChat uses. */
export function unixSeconds(ms: number): string {
  return Math.floor(ms / 1000).toString();
}

/** True when `timestamp` (unix seconds) is within 5 minutes of `nowMs`. */
export function isFreshTimestamp(timestamp: string, nowMs: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= WECHATPAY_MAX_CLOCK_SKEW_SECONDS;
}

/** The encrypted `resource` of a notification. */
export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  nonce: string;
  associated_data?: string;
  original_type?: string;
}

const GCM_TAG_BYTES = 16;

/**
 * Decrypts a notification resource: AES-256-GCM with the APIv3 key (its 32 UTF-8 bytes), the
 * resource's nonce (UTF-8) and associated_data (UTF-8, may be empty); the base64 ciphertext ends
 * with the 16-byte tag.
 * @throws Error `resource does not decrypt` on a wrong key, tampered data or a malformed resource.
 */
export function decryptResource(resource: EncryptedResource, apiV3Key: Buffer): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error('unsupported resource algorithm');
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (apiV3Key.length !== 32 || data.length <= GCM_TAG_BYTES || !resource.nonce) {
    throw new Error('resource does not decrypt');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', apiV3Key, Buffer.from(resource.nonce, 'utf8'), {
      authTagLength: GCM_TAG_BYTES,
    });
    decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    return Buffer.concat([
      decipher.update(data.subarray(0, data.length - GCM_TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new Error('resource does not decrypt');
  }
}

/** The inverse of decryptResource (the sandbox encrypts notifications with it). */
export function encryptResource(
  plaintext: string,
  apiV3Key: Buffer,
  nonce: string,
  associatedData: string,
): { ciphertext: string; nonce: string; associated_data: string; algorithm: 'AEAD_AES_256_GCM' } {
  const cipher = createCipheriv('aes-256-gcm', apiV3Key, Buffer.from(nonce, 'utf8'), {
    authTagLength: GCM_TAG_BYTES,
  });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: body.toString('base64'),
    nonce,
    associated_data: associatedData,
  };
}

/** The APIv3 key as the 32 bytes AES-256 needs. @throws Error when it is not 32 bytes. */
export function apiV3KeyBytes(apiV3Key: string): Buffer {
  const bytes = Buffer.from(apiV3Key, 'utf8');
  if (bytes.length !== 32) throw new Error('the WeChat Pay APIv3 key must be 32 bytes');
  return bytes;
}

/** A header value from Node/Fastify headers, looked up case-insensitively; the first of repeats. */
export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
