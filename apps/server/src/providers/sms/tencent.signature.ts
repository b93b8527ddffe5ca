import { createHash, createHmac } from 'node:crypto';

/**
 * Tencent Cloud API 3.0 request signing, TC3-HMAC-SHA256, following Tencent's "签名方法 v3" document:
 * 1. CanonicalRequest = Method \n CanonicalURI ('/') \n CanonicalQueryString ('' for POST) \n
 *    CanonicalHeaders (each `name:value\n`, names and values lower-cased and trimmed, sorted) \n
 *    SignedHeaders (`content-type;host`…) \n lowercase hex SHA-256 of the payload;
 * 2. StringToSign = 'TC3-HMAC-SHA256' \n Timestamp \n `${date}/${service}/tc3_request` \n
 *    hex SHA-256 of the CanonicalRequest (date is the UTC date of the timestamp);
 * 3. SecretDate = HMAC('TC3' + SecretKey, date); SecretService = HMAC(SecretDate, service);
 *    SecretSigning = HMAC(SecretService, 'tc3_request'); Signature = hex HMAC(SecretSigning, StringToSign);
 * 4. Authorization = 'TC3-HMAC-SHA256 Credential=SecretId/CredentialScope, SignedHeaders=…, Signature=…'.
 */

export interface Tc3SignInput {
  secretId: string;
  secretKey: string;
  /** Product name, the first label of the endpoint host: 'sms' for sms.tencentcloudapi.com. */
  service: string;
  /** Unix seconds; the X-TC-Timestamp header carries the same value. */
  timestamp: number;
  /** The headers taking part, by any case; `content-type` and `host` are required. */
  headers: Record<string, string>;
  payload: string;
  method?: string;
  canonicalUri?: string;
  canonicalQueryString?: string;
}

export interface Tc3Signature {
  authorization: string;
  signature: string;
  signedHeaders: string;
  canonicalRequest: string;
  stringToSign: string;
  credentialScope: string;
}

export const TC3_ALGORITHM = 'TC3-HMAC-SHA256';

function sha256Hex(data: string): string {
  return createHash('sha256').update(data, 'utf8').digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** UTC date `YYYY-MM-DD` of a unix timestamp in seconds. */
export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

export function signTc3(input: Tc3SignInput): Tc3Signature {
  const method = (input.method ?? 'POST').toUpperCase();
  const entries = Object.entries(input.headers)
    .map(([k, v]) => [k.toLowerCase(), v.trim().toLowerCase()] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonicalHeaders = entries.map(([k, v]) => `${k}:${v}\n`).join('');
  const signedHeaders = entries.map(([k]) => k).join(';');
  const canonicalRequest = [
    method,
    input.canonicalUri ?? '/',
    input.canonicalQueryString ?? '',
    canonicalHeaders,
    signedHeaders,
    sha256Hex(input.payload),
  ].join('\n');
  const date = tc3Date(input.timestamp);
  const credentialScope = `${date}/${input.service}/tc3_request`;
  const stringToSign = [
    TC3_ALGORITHM,
    String(input.timestamp),
    credentialScope,
    sha256Hex(canonicalRequest),
  ].join('\n');
  const secretDate = hmac(`TC3${input.secretKey}`, date);
  const secretService = hmac(secretDate, input.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign, 'utf8').digest('hex');
  const authorization = `${TC3_ALGORITHM} Credential=${input.secretId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { authorization, signature, signedHeaders, canonicalRequest, stringToSign, credentialScope };
}

/** Parses an `Authorization: TC3-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header. */
export function parseTc3Authorization(
  header: string,
): { secretId: string; date: string; service: string; signedHeaders: string[]; signature: string } | null {
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{4}-\d{2}-\d{2})\/([a-z0-9]+)\/tc3_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      header.trim(),
    );
  if (!m) return null;
  return { secretId: m[1]!, date: m[2]!, service: m[3]!, signedHeaders: m[4]!.split(';'), signature: m[5]! };
}
