import { Readable } from 'node:stream';
import { assertValidKey, FileNotFoundError, type FileStorage } from './file-storage.ts';
import {
  authorization,
  canonicalQuery,
  EMPTY_PAYLOAD_HASH,
  type S3Credentials,
  sha256Hex,
  toAmzDate,
  uriEncode,
} from './s3-sign.ts';

/**
 * File storage in an S3-compatible object store (the scaled mode, where API and worker processes
 * on several machines must see the same uploads and reports). Path-style requests
 * (`<endpoint>/<bucket>/<prefix><key>`) signed with AWS Signature Version 4, through fetch:
 * PUT, GET, HEAD and DELETE of objects, ListObjectsV2 for deleting a folder.
 */
export interface S3StorageOptions extends S3Credentials {
  /** e.g. https://s3.cn-north-1.amazonaws.com.cn, https://minio.internal:9000 (no trailing slash needed). */
  endpoint: string;
  bucket: string;
  /** Prepended to every key (e.g. `kyfw/`); empty by default. */
  prefix?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

export class S3StorageError extends Error {
  override readonly name = 'S3StorageError';
  readonly status: number;

  constructor(operation: string, key: string, status: number, body: string) {
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? '';
    super(`S3 ${operation} ${key} failed: HTTP ${status}${code ? ` ${code}` : ''}`);
    this.status = status;
  }
}

export function createS3Storage(options: S3StorageOptions): FileStorage {
  const base = new URL(options.endpoint.replace(/\/+$/, ''));
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const prefix = options.prefix ?? '';
  const objectPath = (key: string) =>
    `${base.pathname.replace(/\/$/, '')}/${uriEncode(options.bucket)}/${`${prefix}${key}`.split('/').map(uriEncode).join('/')}`;
  const bucketPath = () => `${base.pathname.replace(/\/$/, '')}/${uriEncode(options.bucket)}`;

  async function send(
    method: string,
    path: string,
    query: Record<string, string> = {},
    body?: Uint8Array,
  ): Promise<Response> {
    const amzDate = toAmzDate(now());
    const payloadHash = body ? sha256Hex(body) : EMPTY_PAYLOAD_HASH;
    const headers: Record<string, string> = {
      host: base.host,
      'x-amz-content-sha256': payloadHash,
      'x-amz-date': amzDate,
    };
    const auth = authorization({ method, path, query, headers, payloadHash, amzDate }, options);
    const qs = canonicalQuery(query);
    const url = `${base.protocol}//${base.host}${path}${qs ? `?${qs}` : ''}`;
    const { host: _host, ...sent } = headers;
    return doFetch(url, {
      method,
      headers: { ...sent, authorization: auth },
      ...(body ? { body } : {}),
    });
  }

  async function fail(operation: string, key: string, res: Response): Promise<never> {
    throw new S3StorageError(operation, key, res.status, await res.text().catch(() => ''));
  }

  async function fetchObject(key: string): Promise<Response> {
    assertValidKey(key);
    const res = await send('GET', objectPath(key));
    if (res.status === 404) {
      await res.body?.cancel();
      throw new FileNotFoundError(key);
    }
    if (!res.ok) return fail('GET', key, res);
    return res;
  }

  const storage: FileStorage = {
    async put(key, data) {
      assertValidKey(key);
      const body = typeof data === 'string' ? Buffer.from(data) : data;
      const res = await send('PUT', objectPath(key), {}, body);
      if (!res.ok) return fail('PUT', key, res);
      await res.body?.cancel();
    },
    async get(key) {
      const res = await fetchObject(key);
      return Buffer.from(await res.arrayBuffer());
    },
    async open(key) {
      const res = await fetchObject(key);
      const size = Number(res.headers.get('content-length') ?? 0);
      return { stream: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), size };
    },
    async exists(key) {
      assertValidKey(key);
      const res = await send('HEAD', objectPath(key));
      await res.body?.cancel();
      if (res.status === 404) return false;
      if (!res.ok) return fail('HEAD', key, res);
      return true;
    },
    async delete(key) {
      assertValidKey(key);
      const res = await send('DELETE', objectPath(key));
      if (!res.ok && res.status !== 404) return fail('DELETE', key, res);
      await res.body?.cancel();
    },
    async deleteFolder(folder) {
      assertValidKey(folder);
      const listed: string[] = [];
      let token: string | undefined;
      do {
        const query: Record<string, string> = { 'list-type': '2', prefix: `${prefix}${folder}/` };
        if (token) query['continuation-token'] = token;
        const res = await send('GET', bucketPath(), query);
        if (!res.ok) return fail('LIST', folder, res);
        const xml = await res.text();
        for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) listed.push(decodeXml(m[1]!));
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
          ? decodeXml(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '')
          : undefined;
      } while (token);
      for (const full of listed) {
        if (!full.startsWith(prefix)) continue;
        await storage.delete(full.slice(prefix.length));
      }
    },
  };
  return storage;
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
