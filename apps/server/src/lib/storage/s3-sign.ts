import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3 requests (header form), as S3 and S3-compatible stores (MinIO,
 * Ceph, Alibaba OSS and Tencent COS in their S3 modes) verify it:
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
 * Used by the S3 storage (the client) and by its loopback sandbox (to verify), so both speak the
 * protocol exactly; the test checks it against AWS's published example.
 */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface RequestToSign {
  method: string;
  /** The path as sent (already URI-encoded, e.g. `/bucket/check/1/report.pdf`). */
  path: string;
  /** Query parameters (not encoded). */
  query?: Readonly<Record<string, string>>;
  /** Headers to sign, names in any case (host is required). */
  headers: Readonly<Record<string, string>>;
  /** Hex SHA-256 of the body (x-amz-content-sha256). */
  payloadHash: string;
  /** yyyymmddThhmmssZ (x-amz-date). */
  amzDate: string;
}

export const EMPTY_PAYLOAD_HASH = createHash('sha256').update('').digest('hex');

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** yyyymmddThhmmssZ of a date. */
export function toAmzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded. */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function canonicalQuery(query: Readonly<Record<string, string>> = {}): string {
  return Object.keys(query)
    .sort()
    .map((k) => `${uriEncode(k)}=${uriEncode(query[k]!)}`)
    .join('&');
}

/** The Authorization header value for a request. */
export function authorization(request: RequestToSign, credentials: S3Credentials): string {
  const names = Object.keys(request.headers)
    .map((n) => n.toLowerCase())
    .sort();
  const lower = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')]),
  );
  const signedHeaders = names.join(';');
  const canonical = [
    request.method,
    request.path,
    canonicalQuery(request.query),
    ...names.map((n) => `${n}:${lower[n]}`),
    '',
    signedHeaders,
    request.payloadHash,
  ].join('\n');
  const day = request.amzDate.slice(0, 8);
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', request.amzDate, scope, sha256Hex(canonical)].join('\n');
  const hmac = (key: Uint8Array | string, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), 's3'),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
}
