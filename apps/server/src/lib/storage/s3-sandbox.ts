import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorization, type S3Credentials, sha256Hex } from './s3-sign.ts';

/**
 * A loopback S3 sandbox: the part of the S3 REST protocol the S3 storage uses (PUT, GET, HEAD and
 * DELETE of objects, ListObjectsV2 with continuation), path-style, with Signature Version 4
 * verified on every request (403 SignatureDoesNotMatch otherwise) and the payload hash checked.
 * Objects are kept in memory. For tests and for trying the scaled mode's storage without a store.
 */
export interface S3Sandbox {
  /** e.g. http://127.0.0.1:41234 */
  endpoint: string;
  /** Stored object keys of a bucket (tests). */
  keys(bucket: string): string[];
  close(): Promise<void>;
}

export interface S3SandboxOptions extends S3Credentials {
  buckets: readonly string[];
  /** Keys per ListObjectsV2 page (S3: 1000). */
  maxKeys?: number;
  /** Signed requests must be within 15 minutes of this clock (S3: RequestTimeTooSkewed). */
  now?: () => Date;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function sendError(res: ServerResponse, status: number, code: string, method: string): void {
  res.statusCode = status;
  if (method === 'HEAD') return void res.end();
  res.setHeader('content-type', 'application/xml');
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startS3Sandbox(options: S3SandboxOptions): Promise<S3Sandbox> {
  const buckets = new Map(options.buckets.map((b) => [b, new Map<string, Buffer>()]));
  const maxKeys = options.maxKeys ?? 1000;
  const now = options.now ?? (() => new Date());

  const verify = (req: IncomingMessage, rawPath: string, rawQuery: string, body: Buffer): string | null => {
    const auth = req.headers.authorization ?? '';
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m) return 'AccessDenied';
    if (m[1] !== options.accessKeyId) return 'InvalidAccessKeyId';
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    const at = Date.parse(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    if (!Number.isFinite(at) || Math.abs(at - now().getTime()) > 15 * 60_000) return 'RequestTimeTooSkewed';
    if (payloadHash !== sha256Hex(body)) return 'XAmzContentSHA256Mismatch';
    const headers: Record<string, string> = {};
    for (const name of m[4]!.split(';')) headers[name] = String(req.headers[name] ?? '');
    const query: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(rawQuery)) query[k] = v;
    const expected = authorization(
      { method: req.method ?? 'GET', path: rawPath, query, headers, payloadHash, amzDate },
      { ...options, region: m[3]! },
    );
    return expected === auth.replace(/,\s+/g, ',') ? null : 'SignatureDoesNotMatch';
  };

  const server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
    const body = await readBody(req);
    const problem = verify(req, rawPath, rawQuery, body);
    if (problem) return sendError(res, 403, problem, method);
    const [, bucketName = '', ...rest] = rawPath.split('/');
    const bucket = buckets.get(decodeURIComponent(bucketName));
    if (!bucket) return sendError(res, 404, 'NoSuchBucket', method);
    const key = rest.map(decodeURIComponent).join('/');
    if (key === '') {
      if (method !== 'GET') return sendError(res, 405, 'MethodNotAllowed', method);
      const query = new URLSearchParams(rawQuery);
      const prefix = query.get('prefix') ?? '';
      const after = query.get('continuation-token') ?? '';
      const all = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = all.slice(0, maxKeys);
      const truncated = all.length > page.length;
      res.setHeader('content-type', 'application/xml');
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${xmlEscape(bucketName)}</Name>` +
          `<Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>` +
          `<IsTruncated>${truncated}</IsTruncated>` +
          (truncated ? `<NextContinuationToken>${xmlEscape(page.at(-1)!)}</NextContinuationToken>` : '') +
          page
            .map(
              (k) => `<Contents><Key>${xmlEscape(k)}</Key><Size>${bucket.get(k)!.length}</Size></Contents>`,
            )
            .join('') +
          '</ListBucketResult>',
      );
      return;
    }
    const stored = bucket.get(key);
    switch (method) {
      case 'PUT':
        bucket.set(key, body);
        res.setHeader('etag', `"${sha256Hex(body).slice(0, 32)}"`);
        return void res.end();
      case 'GET':
      case 'HEAD':
        if (!stored) return sendError(res, 404, 'NoSuchKey', method);
        res.setHeader('content-length', String(stored.length));
        res.setHeader('content-type', 'application/octet-stream');
        return void res.end(method === 'GET' ? stored : undefined);
      case 'DELETE':
        bucket.delete(key);
        res.statusCode = 204;
        return void res.end();
      default:
        return sendError(res, 405, 'MethodNotAllowed', method);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    keys: (name) => [...(buckets.get(name)?.keys() ?? [])].sort(),
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
