import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFileStorage,
  createLocalStorage,
  FileNotFoundError,
  type FileStorage,
} from '../src/lib/storage/index.ts';
import { type S3Sandbox, startS3Sandbox } from '../src/lib/storage/s3-sandbox.ts';
import { authorization, EMPTY_PAYLOAD_HASH } from '../src/lib/storage/s3-sign.ts';
import { createS3Storage, S3StorageError, type S3StorageOptions } from '../src/lib/storage/s3-storage.ts';

const CREDENTIALS = {
  accessKeyId: 'KYFWTESTKEY',
  secretAccessKey: 'kyfw-test-secret-0123456789',
  region: 'cn-north-1',
};

describe('S3 Signature Version 4', () => {
  it("gives AWS's published signature for its GET Object example", () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html (GET Object)
    const header = authorization(
      {
        method: 'GET',
        path: '/test.txt',
        headers: {
          Host: 'examplebucket.s3.amazonaws.com',
          Range: 'bytes=0-9',
          'x-amz-content-sha256': EMPTY_PAYLOAD_HASH,
          'x-amz-date': '20130524T000000Z',
        },
        payloadHash: EMPTY_PAYLOAD_HASH,
        amzDate: '20130524T000000Z',
      },
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
      },
    );
    expect(header).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});

let sandbox: S3Sandbox;
let dir: string;
/** An S3 storage on the sandbox's bucket (options changed as given). */
const s3 = (options: Partial<S3StorageOptions> = {}) =>
  createS3Storage({ ...CREDENTIALS, endpoint: sandbox.endpoint, bucket: 'kyfw-files', ...options });

beforeAll(async () => {
  // Two keys per list page, so that deleting a folder goes through ListObjectsV2's continuation.
  sandbox = await startS3Sandbox({ ...CREDENTIALS, buckets: ['kyfw-files'], maxKeys: 2 });
  dir = mkdtempSync(path.join(tmpdir(), 'kyfw-storage-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const backends: { name: string; make: () => FileStorage }[] = [
  { name: 'local folder', make: () => createLocalStorage(path.join(dir, 'local')) },
  {
    name: 'S3 (loopback sandbox)',
    make: () => s3({ prefix: 'app/' }),
  },
];

describe.each(backends)('file storage: $name', ({ make }) => {
  it('stores, replaces, streams, tells existence and deletes files', async () => {
    const storage = make();
    await storage.put('check/1/original.txt', '论文正文');
    expect((await storage.get('check/1/original.txt')).toString()).toBe('论文正文');
    await storage.put('check/1/original.txt', Buffer.from('第二版'));
    expect((await storage.get('check/1/original.txt')).toString()).toBe('第二版');
    const { stream, size } = await storage.open('check/1/original.txt');
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('第二版');
    expect(size).toBe(Buffer.byteLength('第二版'));
    expect(await storage.exists('check/1/original.txt')).toBe(true);
    expect(await storage.exists('check/1/missing.txt')).toBe(false);
    await storage.delete('check/1/original.txt');
    await storage.delete('check/1/original.txt'); // no error the second time
    expect(await storage.exists('check/1/original.txt')).toBe(false);
    await expect(storage.get('check/1/original.txt')).rejects.toBeInstanceOf(FileNotFoundError);
    await expect(storage.open('check/1/original.txt')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('deletes a folder with everything under it, and nothing beside it', async () => {
    const storage = make();
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf', 'sub/d.pdf', 'sub/e.pdf'])
      await storage.put(`check/2/${name}`, name);
    await storage.put('check/20/keep.pdf', 'keep');
    await storage.put('check/2.pdf', 'keep');
    await storage.deleteFolder('check/2');
    expect(await storage.exists('check/2/a.pdf')).toBe(false);
    expect(await storage.exists('check/2/sub/e.pdf')).toBe(false);
    expect((await storage.get('check/20/keep.pdf')).toString()).toBe('keep');
    expect((await storage.get('check/2.pdf')).toString()).toBe('keep');
    await storage.deleteFolder('check/none');
  });

  it('refuses keys that could leave its root', async () => {
    const storage = make();
    for (const key of ['../etc/passwd', '/abs', 'a//b', 'a\\b', ''])
      await expect(storage.put(key, 'x')).rejects.toThrow('invalid storage key');
  });
});

describe('S3 storage against the sandbox', () => {
  it('keeps its files under its prefix in the bucket', async () => {
    const storage = s3({ prefix: 'tenant-a/' });
    await storage.put('orders/invoices/1.pdf', 'pdf');
    expect(sandbox.keys('kyfw-files')).toContain('tenant-a/orders/invoices/1.pdf');
  });

  it("fails with the store's error code on a wrong secret, an unknown bucket or a stale clock", async () => {
    const wrong = s3({ secretAccessKey: 'not-the-secret' });
    await expect(wrong.put('x/y.txt', 'z')).rejects.toThrow(/HTTP 403 SignatureDoesNotMatch/);
    await expect(wrong.get('x/y.txt')).rejects.toBeInstanceOf(S3StorageError);
    const noBucket = s3({ bucket: 'other' });
    await expect(noBucket.put('x/y.txt', 'z')).rejects.toThrow(/HTTP 404 NoSuchBucket/);
    const stale = s3({ now: () => new Date(Date.now() - 3_600_000) });
    await expect(stale.exists('x/y.txt')).rejects.toThrow(/HTTP 403/);
  });

  it('is what createFileStorage gives when the configuration names an S3 store', async () => {
    const storage = createFileStorage({
      dataDir: dir,
      storage: {
        kind: 's3',
        ...CREDENTIALS,
        endpoint: sandbox.endpoint,
        bucket: 'kyfw-files',
        prefix: 'cfg/',
      },
    });
    await storage.put('check/9/report.pdf', 'report');
    expect(sandbox.keys('kyfw-files')).toContain('cfg/check/9/report.pdf');
    const local = createFileStorage({ dataDir: dir });
    await local.put('check/9/report.pdf', 'local');
    expect((await local.get('check/9/report.pdf')).toString()).toBe('local');
  });
});
